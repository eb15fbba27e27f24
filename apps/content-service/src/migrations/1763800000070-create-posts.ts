import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePosts1763800000070 implements MigrationInterface {
  name = 'CreatePosts1763800000070';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE content.posts (
        id uuid PRIMARY KEY,
        slug text NOT NULL,
        title text NOT NULL,
        markdown text NOT NULL,
        author_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX posts_slug_key ON content.posts (slug)`);
    await runner.query(`CREATE INDEX posts_newest_idx ON content.posts (created_at DESC, id DESC)`);
    // Which log-bucket objects a published post shows: only these are served to the public.
    await runner.query(`
      CREATE TABLE content.post_images (
        post_id uuid NOT NULL REFERENCES content.posts (id) ON DELETE CASCADE,
        object_key text NOT NULL,
        PRIMARY KEY (post_id, object_key)
      )`);
    await runner.query(`CREATE INDEX post_images_key_idx ON content.post_images (object_key)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE content.post_images, content.posts`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { excerptOf } from '../posts/post-text';

/**
 * A post's excerpt is worked out once, when it is published, and kept beside it: the public list shows many posts a
 * page, and reading each one's whole markdown to excerpt it again at every visit was work any visitor could ask for,
 * and data the list never shows. Posts published before are excerpted here, as publishing does now.
 */
export class PostExcerpts1765000000070 implements MigrationInterface {
  name = 'PostExcerpts1765000000070';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE content.posts ADD COLUMN excerpt text`);
    const posts: Array<{ id: string; markdown: string }> = await runner.query(`SELECT id, markdown FROM content.posts`);
    for (const post of posts) await runner.query(`UPDATE content.posts SET excerpt = $2 WHERE id = $1`, [post.id, excerptOf(post.markdown)]);
    await runner.query(`ALTER TABLE content.posts ALTER COLUMN excerpt SET NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE content.posts DROP COLUMN excerpt`);
  }
}

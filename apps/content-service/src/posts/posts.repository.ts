import type { Keyed, KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';

/** What the list shows of a post. */
export interface PostSummaryRow {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  created_at: Date;
}

export interface PostRow extends PostSummaryRow {
  markdown: string;
}

export interface NewPost {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  markdown: string;
  authorId: string;
  imageKeys: readonly string[];
}

export class PostsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the post and its image keys in one statement; false when the slug is taken. */
  async insert(post: NewPost): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH post AS (
         INSERT INTO content.posts (id, slug, title, excerpt, markdown, author_id) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING RETURNING id
       ), images AS (
         INSERT INTO content.post_images (post_id, object_key)
         SELECT post.id, key FROM post, unnest($7::text[]) AS key
       )
       SELECT id FROM post`,
      [post.id, post.slug, post.title, post.excerpt, post.markdown, post.authorId, post.imageKeys],
    );
    return rows.length > 0;
  }

  async page(after: KeysetPosition | undefined, limit: number): Promise<Keyed<PostSummaryRow>[]> {
    return this.dataSource.query(
      `SELECT id, slug, title, excerpt, created_at, created_at::text AS cursor_at FROM content.posts
       WHERE $1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::uuid)
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [after?.key ?? null, after?.id ?? null, limit],
    );
  }

  async findBySlug(slug: string): Promise<PostRow | undefined> {
    const rows: PostRow[] = await this.dataSource.query(`SELECT id, slug, title, excerpt, markdown, created_at FROM content.posts WHERE slug = $1`, [slug]);
    return rows[0];
  }

  /** The post published under this id, by whom and with what text, if any. */
  async findPublished(id: string): Promise<{ slug: string; markdown: string; author_id: string } | undefined> {
    const rows: { slug: string; markdown: string; author_id: string }[] = await this.dataSource.query(
      `SELECT slug, markdown, author_id FROM content.posts WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  async isPublishedImage(key: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM content.post_images WHERE object_key = $1 LIMIT 1`, [key]);
    return rows.length > 0;
  }
}

import { randomUUID } from 'node:crypto';
import {
  type LogPost,
  type LogPostPage,
  type LogPostSummary,
  logImagePath,
  type PayloadOf,
  postTitleOf,
  type PublishPostResponse,
  resolveWikiImages,
  wikiImageNames,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import { excerptOf, slugOf } from './post-text';
import type { PostsRepository, PostSummaryRow } from './posts.repository';

const toSummary = (row: PostSummaryRow): LogPostSummary => ({
  id: row.id,
  slug: row.slug,
  title: row.title,
  excerpt: row.excerpt,
  createdAt: row.created_at.toISOString(),
});

export class PostsService {
  constructor(private readonly posts: PostsRepository) {}

  /** Publishes the Developer's Log entry; its wiki-link images become public image URLs. */
  async publish(request: PayloadOf<'content.publish-post'>): Promise<PublishPostResponse> {
    const keyOf = new Map(request.images.map((image) => [image.name, image.key]));
    const missing = wikiImageNames(request.markdown).filter((name) => !keyOf.has(name));
    if (missing.length > 0) {
      throw new DomainError('VALIDATION_FAILED', `Missing images: ${missing.join(', ')}`, { fieldErrors: { images: ['Missing images'] } });
    }
    // An admin may only attach what they uploaded themselves (keys are `{userId}/...`).
    if (request.images.some((image) => !image.key.startsWith(`${request.authorId}/`))) {
      throw new DomainError('FORBIDDEN', 'Images must be uploaded by the author.');
    }
    const markdown = resolveWikiImages(request.markdown, (name) => {
      const key = keyOf.get(name);
      return key ? logImagePath(key) : undefined;
    });
    const title = postTitleOf(markdown);
    const excerpt = excerptOf(markdown);
    const usedKeys = [...new Set(wikiImageNames(request.markdown).map((name) => keyOf.get(name) ?? ''))].filter(Boolean);
    const base = slugOf(title);
    const id = request.postId ?? randomUUID();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const slug = attempt === 1 ? base : `${base}-${attempt}`;
      const inserted = await this.posts.insert({ id, slug, title, excerpt, markdown, authorId: request.authorId, imageKeys: usedKeys });
      if (inserted) return { success: true, postUrl: `/log/${slug}`, slug };
      // Not inserted: its slug is taken, or this very post is already out (Publish pressed again).
      const published = await this.posts.findPublished(id);
      if (published) return this.publishedAgain(published, markdown, request.authorId);
    }
    throw new DomainError('CONFLICT', 'Publishing failed: too many posts share this title.');
  }

  private publishedAgain(published: { slug: string; markdown: string; author_id: string }, markdown: string, authorId: string): PublishPostResponse {
    if (published.markdown !== markdown || published.author_id !== authorId) {
      throw new DomainError('CONFLICT', 'This post was already published with other content. Preview your entry again to publish it as a new post.');
    }
    return { success: true, postUrl: `/log/${published.slug}`, slug: published.slug };
  }

  async list(request: PayloadOf<'content.list-posts'>): Promise<LogPostPage> {
    const rows = await this.posts.page(decodeCursor(request.cursor), request.limit + 1);
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toSummary), nextCursor: page.nextCursor };
  }

  async get(request: PayloadOf<'content.get-post'>): Promise<LogPost> {
    const row = await this.posts.findBySlug(request.slug);
    if (!row) throw new DomainError('NOT_FOUND', 'No such post.');
    return { ...toSummary(row), markdown: row.markdown };
  }

  async checkImage(request: PayloadOf<'content.check-image'>): Promise<{ published: boolean }> {
    return { published: await this.posts.isPublishedImage(request.key) };
  }
}

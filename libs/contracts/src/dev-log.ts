import { z } from 'zod';
import { isoDateTimeSchema, pageOf, pageQuerySchema, uuidSchema, textSchema } from './common';

/** Spec section 5: the image types the publisher accepts. */
export const logImageExtensions = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const UNTITLED_POST = 'Untitled Post';

const wikiImagePattern = /!\[\[([^\]|]+?)(?:\|[^\]]*)?\]\]/g;

/** The file names a post references as `![[name.png]]` (Obsidian-style wiki-link images). */
export function wikiImageNames(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(wikiImagePattern)].map((match) => (match[1] ?? '').trim()))];
}

/** Replaces each `![[name]]` with a standard markdown image whose URL the caller resolves. */
export function resolveWikiImages(markdown: string, urlOf: (name: string) => string | undefined): string {
  return markdown.replace(wikiImagePattern, (whole, name: string) => {
    const url = urlOf(name.trim());
    return url ? `![${name.trim().replace(/[[\]]/g, '')}](<${url}>)` : whole;
  });
}

/** The first level-1 heading, else "Untitled Post". */
export function postTitleOf(markdown: string): string {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(markdown)?.[1]?.trim();
  return heading ? heading.slice(0, 200) : UNTITLED_POST;
}

export const logImageNameSchema = textSchema()
  .min(1)
  .max(200)
  .refine((name) => logImageExtensions.some((extension) => name.toLowerCase().endsWith(`.${extension}`)), 'Images must be png, jpg, jpeg, gif or webp');

/** An uploaded image: its name as the markdown references it, and its key in the log bucket. */
export const logImageSchema = z.object({ name: logImageNameSchema, key: textSchema().min(1).max(500) });
export type LogImage = z.infer<typeof logImageSchema>;

export const uploadedLogImageSchema = logImageSchema.extend({ previewUrl: z.string() });
export type UploadedLogImage = z.infer<typeof uploadedLogImageSchema>;

/** Body of `POST /api/log/posts`: the markdown as written, with the images it references. */
export const publishPostRequestSchema = z
  .object({
    markdown: textSchema()
      .max(200_000)
      .refine((text) => text.trim().length > 0, 'No content'),
    images: z.array(logImageSchema).max(50).default([]),
  })
  .strict();
export type PublishPostRequest = z.input<typeof publishPostRequestSchema>;
export const publishPostBusRequestSchema = publishPostRequestSchema.extend({ authorId: uuidSchema });

export const publishPostResponseSchema = z.object({ success: z.literal(true), postUrl: z.string(), slug: z.string() });
export type PublishPostResponse = z.infer<typeof publishPostResponseSchema>;

export const logPostSummarySchema = z.object({
  id: uuidSchema,
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  createdAt: isoDateTimeSchema,
});
export type LogPostSummary = z.infer<typeof logPostSummarySchema>;
export const logPostPageSchema = pageOf(logPostSummarySchema);
export type LogPostPage = z.infer<typeof logPostPageSchema>;
export const listPostsRequestSchema = pageQuerySchema;

/** A published post; its markdown already points its images at `/api/log/images/...`. */
export const logPostSchema = logPostSummarySchema.extend({ markdown: z.string() });
export type LogPost = z.infer<typeof logPostSchema>;
export const getPostRequestSchema = z.object({ slug: textSchema().min(1).max(200) });

export const checkLogImageRequestSchema = z.object({ key: textSchema().min(1).max(500) });
export const checkLogImageResponseSchema = z.object({ published: z.boolean() });

/** The public URL of a published post image: the gateway redirects it to a short-lived signed URL. */
export const logImagePath = (key: string) => `/api/log/images/${key.split('/').map(encodeURIComponent).join('/')}`;

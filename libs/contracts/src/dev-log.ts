import { z } from 'zod';
import { isoDateTimeSchema, pageOf, pageQuerySchema, uuidSchema, textSchema } from './common';

/** Spec section 5: the image types the publisher accepts. */
export const logImageExtensions = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const UNTITLED_POST = 'Untitled Post';
/** The most characters a post's markdown may have. */
export const POST_MARKDOWN_MAX_LENGTH = 200_000;

// Neither part runs past the next bracket, so a text of many unclosed `![[` is read once, not once per `![[`.
const wikiImagePattern = /!\[\[([^[\]|]+?)(?:\|[^[\]]*)?\]\]/g;

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

const lineBreak = /\r\n?|[\n\u2028\u2029]/;
const isBlank = (character: string | undefined) => character === ' ' || character === '\t';

/** A heading line's text without its optional closing run of `#` (which must follow a space, as in CommonMark). */
function headingText(line: string): string {
  let end = line.length;
  while (end > 0 && isBlank(line[end - 1])) end--;
  let closing = end;
  while (closing > 0 && line[closing - 1] === '#') closing--;
  if (closing < end && (closing === 0 || isBlank(line[closing - 1]))) end = closing;
  return line.slice(0, end).trim();
}

/**
 * The first level-1 heading with text, else "Untitled Post". Read line by line without a backtracking pattern, so a
 * long line of `# # # …` takes no longer than any other text.
 */
export function postTitleOf(markdown: string): string {
  for (const line of markdown.split(lineBreak)) {
    if (line[0] !== '#' || !isBlank(line[1])) continue;
    const title = headingText(line.slice(2));
    if (title) return title.slice(0, 200);
  }
  return UNTITLED_POST;
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
      .max(POST_MARKDOWN_MAX_LENGTH)
      .refine((text) => text.trim().length > 0, 'No content'),
    images: z.array(logImageSchema).max(50).default([]),
    /**
     * Chosen by the publisher for each preview, so pressing Publish again after an answer that never came (the post may
     * well be out) answers the post already published rather than publishing it twice.
     */
    postId: uuidSchema.optional(),
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

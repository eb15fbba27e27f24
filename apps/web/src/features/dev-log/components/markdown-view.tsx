import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * Markdown as HTML, sanitised with DOMPurify after rendering: scripts, event handlers and
 * javascript: URLs in a post are dropped, so a post cannot run code in a reader's browser.
 */
export function MarkdownView({ markdown }: { markdown: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true }), { USE_PROFILES: { html: true } }), [markdown]);
  return (
    <div
      className="prose-log space-y-4 text-base leading-relaxed text-slate-700 [&_a]:text-spark-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-spark-300 [&_blockquote]:pl-4 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:text-ink-950 [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:text-ink-950 [&_h3]:text-xl [&_h3]:font-semibold [&_img]:my-4 [&_img]:rounded-xl [&_img]:shadow-soft [&_li]:ml-6 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-ink-950 [&_pre]:p-4 [&_pre]:text-slate-100 [&_ul]:list-disc"
      // Sanitised just above; this is the one place the app sets HTML.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

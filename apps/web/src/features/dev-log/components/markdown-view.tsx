import DOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

// What markdown itself produces, and nothing that can position, style or collect: no <style>,
// style= or class= (the site's own utility classes include fixed, full-screen layers), no forms or
// controls, no frames, no dialogs or popovers. Links and images keep only their address and text.
const postMarkup: Config = {
  ALLOWED_TAGS: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'a',
    'img',
    'em',
    'strong',
    'del',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'sup',
    'sub',
    'kbd',
  ],
  ALLOWED_ATTR: ['href', 'src', 'alt', 'title', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/**
 * Markdown as HTML, sanitised with DOMPurify after rendering: scripts, event handlers and
 * javascript: URLs are dropped, and so is any markup that could lay something over the page.
 */
export function MarkdownView({ markdown }: { markdown: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true }), postMarkup), [markdown]);
  return (
    <div
      className="prose-log space-y-4 text-base leading-relaxed text-slate-700 [&_a]:text-spark-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-spark-300 [&_blockquote]:pl-4 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:text-ink-950 [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:text-ink-950 [&_h3]:text-xl [&_h3]:font-semibold [&_img]:my-4 [&_img]:rounded-xl [&_img]:shadow-soft [&_li]:ml-6 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-ink-950 [&_pre]:p-4 [&_pre]:text-slate-100 [&_ul]:list-disc"
      // Sanitised just above; this is the one place the app sets HTML.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

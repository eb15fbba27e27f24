import { escapeHtml } from '@spark/writing';

/** Wraps paragraphs (plain text, escaped here) in the branded e-mail layout. */
export function layout(heading: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((text) => `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(text)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#f97316;color:#fff;padding:12px 20px;border-radius:10px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<div style="font-weight:800;font-size:20px;color:#312e81;margin-bottom:24px">✦ The Spark</div>
<div style="background:#fff;border-radius:16px;padding:28px;box-shadow:0 1px 3px rgba(15,23,42,.08)">
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}${button}</div>
<p style="font-size:12px;color:#64748b;margin-top:24px">Spark Evolution Labs, Inc.</p></div></body></html>`;
}

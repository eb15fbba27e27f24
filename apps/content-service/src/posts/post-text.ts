/** A URL-safe slug of the title: lower-case ASCII words joined by dashes. */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'post';
}

/**
 * About the first 200 characters of readable text: headings, markdown syntax, images and scripts left out. No part of
 * a pattern here can run past the next bracket of its kind, so a text of many unclosed `<`, `[` or `(` is read once,
 * not once for each of them.
 */
export function excerptOf(markdown: string): string {
  const text = markdown
    // A script's or style's body is code, not prose: dropped with its tags.
    .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, '')
    .replace(/^[ \t]*#{1,6}[ \t]+.*$/gm, '')
    .replace(/!\[\[[^[\]]*\]\]|!\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, '')
    // A link's target may hold one level of parentheses, e.g. javascript:alert('x').
    .replace(/\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/<[^<>]*>/g, '')
    // List bullets and rules are markup; a hyphen inside a word (check-ins) is prose.
    .replace(/^[ \t]*(?:[-+*][ \t]+|-{3,}[ \t]*$)/gm, '')
    .replace(/[#>*_`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 197).trimEnd()}...` : text;
}

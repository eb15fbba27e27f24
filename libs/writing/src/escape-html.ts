const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML content or a quoted attribute: every page and e-mail we write goes through it. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => entities[char] ?? char);

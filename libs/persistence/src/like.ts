/** Escapes LIKE's wildcards (and its escape character), so typed text matches only itself. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

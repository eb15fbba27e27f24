/** RFC 4180 text: every field quoted, quotes doubled, so notes with commas or line breaks stay one field. */
export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const field = (value: unknown) => {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [columns.map(field).join(','), ...rows.map((row) => columns.map((column) => field(row[column])).join(','))].join('\r\n') + '\r\n';
}

const field = (value: unknown) => {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replace(/"/g, '""')}"`;
};

/** One RFC 4180 record: every field quoted, quotes doubled, so notes with commas or line breaks stay one field. */
export const csvLine = (values: readonly unknown[]) => `${values.map(field).join(',')}\r\n`;

export const csvRow = (row: Record<string, unknown>, columns: readonly string[]) => csvLine(columns.map((column) => row[column]));

export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  return csvLine(columns) + rows.map((row) => csvRow(row, columns)).join('');
}

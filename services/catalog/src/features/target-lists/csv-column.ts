/** Header names that say which CSV column holds the targets. */
const TARGET_COLUMNS = new Set(['target', 'asin', 'keyword', 'url']);

/**
 * The fields of one CSV line (RFC 4180 quoting within the line: `"a, b"`, `""` for a quote). A
 * quoted field spanning lines is not supported: targets hold no newlines.
 */
export function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i] as string;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/**
 * Which column of a CSV upload holds the targets, read off its first line: a column named
 * `target`, `asin`, `keyword` or `url` (any case), which makes that line a header; else the first
 * column, and the first line is data.
 */
export function targetColumnOf(firstLine: string): { column: number; header: boolean } {
  const names = csvFields(firstLine).map((name) => name.trim().toLowerCase());
  const column = names.findIndex((name) => TARGET_COLUMNS.has(name));
  return column === -1 ? { column: 0, header: false } : { column, header: true };
}

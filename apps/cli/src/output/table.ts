import Table from 'cli-table3';

/** A plain table: one header row, cells as text, no borders inside (easy to read and to grep). */
export function table(head: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  const rendered = new Table({
    head,
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
  });
  for (const row of rows) rendered.push(row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  return rendered
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** `key: value` lines with the keys aligned. */
export function fields(entries: Array<[string, string | number | boolean | null | undefined]>): string {
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${value === null ? '-' : String(value)}`)
    .join('\n');
}

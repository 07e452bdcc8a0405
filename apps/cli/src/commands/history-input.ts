import { type HistoryField, type HistoryResolution, PRODUCT_TRACKED_FIELDS } from '@crawl/sdk';
import { UsageError } from '../cli-io.ts';

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/**
 * `--from` / `--to` as an ISO 8601 time: a date (`2026-03-01`, midnight UTC), a date and time
 * (`2026-03-01T12:00:00Z`), or a time ago (`12h`, `30d`, `2w`).
 */
export function parseWhen(option: string, text: string, now: Date = new Date()): string {
  const ago = /^(\d{1,5})([hdw])$/.exec(text.trim());
  if (ago) return new Date(now.getTime() - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]).toISOString();
  const trimmed = text.trim();
  const time = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
    ? Date.parse(`${trimmed}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(trimmed)
      ? Date.parse(trimmed)
      : Number.NaN;
  if (Number.isNaN(time))
    throw new UsageError(`${option} must be a date (2026-03-01), an ISO time (2026-03-01T12:00:00Z) or a time ago (12h, 30d, 2w), got "${text}"`);
  return new Date(time).toISOString();
}

/** `--fields price,inStock`: tracked fields of a product (`bestSellersRank` for every category, `bestSellersRank:<category>` for one). */
export function parseFields(text: string): HistoryField[] {
  const fields = text
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  const known: readonly string[] = PRODUCT_TRACKED_FIELDS;
  const unknown = fields.find((field) => !known.includes(field) && !/^bestSellersRank:.+/.test(field));
  if (fields.length === 0 || unknown !== undefined) {
    throw new UsageError(`--fields takes tracked fields separated by commas (${PRODUCT_TRACKED_FIELDS.join(', ')}), got "${unknown ?? text}"`);
  }
  return fields as HistoryField[];
}

export function parseResolution(text: string): HistoryResolution {
  if (text !== '1h' && text !== '1d') throw new UsageError(`--resolution must be 1h or 1d, got "${text}"`);
  return text;
}

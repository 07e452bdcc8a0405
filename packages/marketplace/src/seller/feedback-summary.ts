import { normalizeDigits, parseCount } from '../numbers.ts';

/**
 * The summary line's positive share and rating count: `95% positive in the last 12 months (1,234
 * ratings)`, `95 % positiv in den letzten 12 Monaten (1.234 Bewertungen)`, `%95 olumlu` (Turkish puts
 * the sign first), `過去12か月で95%が肯定的（1,234件の評価）`.
 */
export function feedbackSummary(text: string): { percent?: number; count?: number } {
  const normalized = normalizeDigits(text);
  const result: { percent?: number; count?: number } = {};
  const percent = /(?<![\d.,])(\d{1,3})\s*[%％]|[%％]\s*(\d{1,3})(?![\d.,])/.exec(normalized);
  const value = Number(percent?.[1] ?? percent?.[2]);
  if (percent && value >= 0 && value <= 100) result.percent = value;
  const counts = [...normalized.matchAll(/[(（]([^()（）]*\d[^()（）]*)[)）]/g)];
  const last = counts[counts.length - 1]?.[1];
  const count = last === undefined ? undefined : parseCount(last);
  if (count !== undefined) result.count = count;
  return result;
}

import { currencyDecimals, currencyForLocale, detectCurrency } from './currency.ts';
import { NUMBER_RUN, isGroupingOnly, normalizeDigits } from './numbers.ts';

export interface Price {
  /** Major units, exact to the currency's minor unit (1299.99, never 1299.9899999). */
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** The text the amount was read from, trimmed. */
  raw: string;
}

export interface PriceHint {
  /** Currency assumed when the text has none or only an ambiguous `$`. */
  currency?: string;
  /** BCP-47 locale of the page; used for the currency when `currency` is not given. */
  locale?: string;
}

/**
 * Reads a shelf price such as `$1,299.99`, `1.299,99 €`, `1 299,99 €`, `￥1,980`, `R$ 1.299,00`,
 * `CA$12.50` or `EUR 12,00`. Returns undefined when the text holds no amount or no currency can be
 * determined (neither in the text nor from the hint).
 */
export function parsePrice(text: string, hint: PriceHint = {}): Price | undefined {
  const raw = text.trim();
  if (raw === '') return undefined;
  const normalized = joinSplitFraction(normalizeDigits(raw));
  const match = NUMBER_RUN.exec(normalized);
  if (!match) return undefined;

  const hintCurrency = hint.currency ?? (hint.locale ? currencyForLocale(hint.locale) : undefined);
  const around = `${normalized.slice(0, match.index)} ${normalized.slice(match.index + match[0].length)}`;
  const currency = detectCurrency(around, hintCurrency) ?? hintCurrency;
  if (!currency) return undefined;

  const amount = readAmount(match[0], currencyDecimals(currency));
  return amount === undefined ? undefined : { amount, currency, raw };
}

/**
 * Markup re-indented by hand or by a tool splits a price around its decimal separator (`$14\n.99`,
 * `14 ,99 €`): whitespace next to a separator that 1–2 final digits follow is no grouping (a space
 * only groups thousands), so it goes, and the fraction stays with its number.
 */
function joinSplitFraction(text: string): string {
  return text.replace(/(\d)\s*([.,])\s*(\d{1,2})(?!\d)/g, (match, whole: string, separator: string, fraction: string) =>
    /\s/.test(match) ? `${whole}${separator}${fraction}` : match,
  );
}

/**
 * Splits the number into integer and fraction digits. The last `.`/`,` is the decimal separator
 * when 1–2 digits follow it; 3 digits after it mean thousands grouping (`1.299 €`, `¥1,980`);
 * spaces and apostrophes always group. A zero-decimal currency (JPY) may still show a `.00`
 * fraction; it is accepted only when it is zero, since a non-zero one would be a misread.
 */
function readAmount(run: string, decimals: number): number | undefined {
  let decimalAt = -1;
  for (let i = run.length - 1; i >= 0; i--) {
    const ch = run[i] as string;
    if (ch >= '0' && ch <= '9') continue;
    if (ch === '.' || ch === ',') {
      const fractionLength = run.length - 1 - i;
      if (fractionLength !== 3) decimalAt = i;
    } else if (!isGroupingOnly(ch)) {
      return undefined;
    }
    break;
  }

  const integerPart = decimalAt === -1 ? run : run.slice(0, decimalAt);
  const fraction = decimalAt === -1 ? '' : run.slice(decimalAt + 1);
  if (decimalAt !== -1 && integerPart.includes(run[decimalAt] as string)) return undefined;
  if (decimals === 0 && fraction !== '' && !/^0+$/.test(fraction)) return undefined;

  const integerDigits = integerPart.replace(/\D/g, '');
  const minorDigits = decimals === 0 ? '' : fraction;
  const units = Number(integerDigits + minorDigits);
  if (!Number.isSafeInteger(units)) return undefined;
  return minorDigits === '' ? units : units / 10 ** minorDigits.length;
}

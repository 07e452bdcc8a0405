import { normalizeDigits } from '../numbers.ts';

// Month names as review date lines print them, in the storefront languages (Polish and Turkish
// decline them: `3 marca 2024`, `3 Mart 2024`). Lower case; a trailing dot is dropped before lookup.
const MONTH_NAMES: readonly (readonly string[])[] = [
  ['january', 'jan', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'januari', 'janeiro', 'jan', 'stycznia', 'styczeń', 'ocak'],
  ['february', 'feb', 'februar', 'février', 'févr', 'febrero', 'febbraio', 'februari', 'fevereiro', 'lutego', 'luty', 'şubat', 'subat'],
  ['march', 'mar', 'märz', 'mars', 'marzo', 'maart', 'março', 'marca', 'marzec', 'mart'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwietnia', 'kwiecień', 'nisan'],
  ['may', 'mai', 'mayo', 'maggio', 'mei', 'maio', 'maja', 'maj', 'mayıs', 'mayis'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'junho', 'czerwca', 'czerwiec', 'haziran'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'julho', 'lipca', 'lipiec', 'temmuz'],
  ['august', 'aug', 'août', 'agosto', 'augustus', 'sierpnia', 'sierpień', 'ağustos', 'agustos'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'settembre', 'setembro', 'września', 'wrzesień', 'eylül', 'eylul'],
  ['october', 'oct', 'oktober', 'octobre', 'octubre', 'ottobre', 'outubro', 'października', 'październik', 'ekim'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopad', 'kasım', 'kasim'],
  ['december', 'dec', 'dezember', 'décembre', 'déc', 'diciembre', 'dicembre', 'dezembro', 'grudnia', 'grudzień', 'aralık', 'aralik'],
];
const MONTHS = new Map<string, number>();
MONTH_NAMES.forEach((names, i) => {
  for (const name of names) MONTHS.set(name, i + 1);
});

const JAPANESE = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/;
const NUMERIC = /(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})/;
// `March 3, 2024`
const MONTH_FIRST = /([\p{L}]+)\.?\s+(\d{1,2}),\s*(\d{4})/u;
// `3 March 2024`, `3. März 2024`, `3 de marzo de 2024`, `3 mars 2024`
const DAY_FIRST = /(\d{1,2})\.?\s+(?:de\s+)?([\p{L}]+)\.?\s+(?:de\s+)?(\d{4})/u;

/** The ISO date in a review's date line; undefined when none can be read (never a guess). */
export function reviewDateOf(line: string): string | undefined {
  const text = normalizeDigits(line);
  let match = JAPANESE.exec(text) ?? NUMERIC.exec(text);
  if (match) return iso(Number(match[1]), Number(match[2]), Number(match[3]));
  match = MONTH_FIRST.exec(text);
  if (match) {
    const month = MONTHS.get((match[1] as string).toLowerCase());
    if (month !== undefined) return iso(Number(match[3]), month, Number(match[2]));
  }
  match = DAY_FIRST.exec(text);
  if (match) return iso(Number(match[3]), MONTHS.get((match[2] as string).toLowerCase()), Number(match[1]));
  return undefined;
}

function iso(year: number, month: number | undefined, day: number): string | undefined {
  if (month === undefined || month < 1 || month > 12 || day < 1 || day > 31 || year < 1995) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

// Where the review was written, between the lead-in and the date, per storefront language.
const COUNTRY_PATTERNS: readonly RegExp[] = [
  /Reviewed in (.+?)\s+on\s/i,
  /(?:Rezension aus|Rezensiert in|Bewertet in)\s+(.+?)\s+(?:vom|am)\s/i,
  /Commenté (?:en|au|aux|à)\s+(.+?)\s+le\s/i,
  /(?:Revisado|Calificado|Valorado|Reseñado|Opinión)\s+(?:en|de)\s+(.+?)\s+el\s/i,
  /Recensito (?:in|nel|negli|nei|nelle)\s+(.+?)\s+(?:il|l['’]|in data)\s*/i,
  /Beoordeeld in\s+(.+?)\s+op\s/i,
  /Avaliado (?:no|na|nos|nas|em)\s+(.+?)\s+em\s/i,
  /Recenserad i\s+(.+?)\s+den\s/i,
  /Recenzja napisana w\s+(.+?)\s+(?:dnia\s+)?\d/i,
  /\d\s*日に\s*(.+?)\s*でレビュー済み/,
];
// Flags some storefronts put after the country (`India 🇮🇳`).
const FLAG = /[\u{1F1E6}-\u{1F1FF}]/gu;

/** The country a date line names (`the United States`, `Deutschland`, `日本`); undefined when unknown wording. */
export function reviewCountryOf(line: string): string | undefined {
  for (const pattern of COUNTRY_PATTERNS) {
    const match = pattern.exec(line);
    const country = match?.[1]?.replace(FLAG, '').trim();
    if (country) return country;
  }
  return undefined;
}

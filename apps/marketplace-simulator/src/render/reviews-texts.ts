import type { MarketplaceDomain } from '@crawl/marketplace';

/** The review list's wording per language, as the storefronts word it. */
export interface ReviewTexts {
  /** The date line: where and when it was reviewed (`country` already in the storefront's words). */
  reviewedIn(country: string, date: string): string;
  /** A date as the date line prints it. */
  date(iso: string): string;
  verified: string;
  helpful(votes: number, count: string): string;
  /** The filter line: ratings and written reviews (counts already formatted). */
  totals(ratings: string, reviews: string): string;
  /** The product page's count under its reviews block (`1,234 global ratings`). */
  globalRatings(ratings: string): string;
  /** The format strip's dimension names. */
  dimension: Record<'colour' | 'size' | 'style', string>;
  nextPage: string;
  previousPage: string;
  topReviews: string;
  outOf5(stars: number): string;
}

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DE_MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const FR_MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];
const ES_MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
const IT_MONTHS = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];

function parts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split('-').map(Number);
  return [y as number, m as number, d as number];
}

const EN_BASE: Omit<ReviewTexts, 'date'> = {
  reviewedIn: (c, d) => `Reviewed in ${c} on ${d}`,
  verified: 'Verified Purchase',
  helpful: (v, n) => (v === 1 ? 'One person found this helpful' : `${n} people found this helpful`),
  totals: (r, w) => `${r} total ratings, ${w} with reviews`,
  globalRatings: (r) => `${r} global ratings`,
  dimension: { colour: 'Colour', size: 'Size', style: 'Style' },
  nextPage: 'Next page',
  previousPage: 'Previous page',
  topReviews: 'Top reviews',
  outOf5: (s) => `${s}.0 out of 5 stars`,
};

const US: ReviewTexts = {
  ...EN_BASE,
  dimension: { colour: 'Color', size: 'Size', style: 'Style' },
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${EN_MONTHS[m - 1]} ${d}, ${y}`;
  },
};
const EN: ReviewTexts = {
  ...EN_BASE,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${d} ${EN_MONTHS[m - 1]} ${y}`;
  },
};
const DE: ReviewTexts = {
  reviewedIn: (c, d) => `Rezension aus ${c} vom ${d}`,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${d}. ${DE_MONTHS[m - 1]} ${y}`;
  },
  verified: 'Verifizierter Kauf',
  helpful: (v, n) => (v === 1 ? 'Eine Person fand diese Informationen hilfreich' : `${n} Personen fanden diese Informationen hilfreich`),
  totals: (r, w) => `${r} Sternebewertungen insgesamt, ${w} mit Rezensionen`,
  globalRatings: (r) => `${r} Sternebewertungen`,
  dimension: { colour: 'Farbe', size: 'Größe', style: 'Stil' },
  nextPage: 'Nächste Seite',
  previousPage: 'Vorherige Seite',
  topReviews: 'Top-Rezensionen',
  outOf5: (s) => `${s},0 von 5 Sternen`,
};
const FR: ReviewTexts = {
  reviewedIn: (c, d) => `Commenté ${c} le ${d}`,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${d} ${FR_MONTHS[m - 1]} ${y}`;
  },
  verified: 'Achat vérifié',
  helpful: (v, n) => (v === 1 ? 'Une personne a trouvé cela utile' : `${n} personnes ont trouvé cela utile`),
  totals: (r, w) => `${r} évaluations au total, dont ${w} avec avis`,
  globalRatings: (r) => `${r} évaluations`,
  dimension: { colour: 'Couleur', size: 'Taille', style: 'Style' },
  nextPage: 'Page suivante',
  previousPage: 'Page précédente',
  topReviews: 'Meilleures évaluations',
  outOf5: (s) => `${s},0 sur 5 étoiles`,
};
const ES: ReviewTexts = {
  reviewedIn: (c, d) => `Revisado en ${c} el ${d}`,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${d} de ${ES_MONTHS[m - 1]} de ${y}`;
  },
  verified: 'Compra verificada',
  helpful: (v, n) => (v === 1 ? 'A una persona le resultó útil' : `A ${n} personas les resultó útil`),
  totals: (r, w) => `${r} calificaciones totales, ${w} con reseñas`,
  globalRatings: (r) => `${r} calificaciones globales`,
  dimension: { colour: 'Color', size: 'Tamaño', style: 'Estilo' },
  nextPage: 'Página siguiente',
  previousPage: 'Página anterior',
  topReviews: 'Principales reseñas',
  outOf5: (s) => `${s},0 de 5 estrellas`,
};
const IT: ReviewTexts = {
  reviewedIn: (c, d) => `Recensito in ${c} il ${d}`,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${d} ${IT_MONTHS[m - 1]} ${y}`;
  },
  verified: 'Acquisto verificato',
  helpful: (v, n) => (v === 1 ? 'Una persona l’ha trovato utile' : `${n} persone l’hanno trovato utile`),
  totals: (r, w) => `${r} valutazioni totali, ${w} con recensioni`,
  globalRatings: (r) => `${r} valutazioni globali`,
  dimension: { colour: 'Colore', size: 'Taglia', style: 'Stile' },
  nextPage: 'Pagina successiva',
  previousPage: 'Pagina precedente',
  topReviews: 'Recensioni migliori',
  outOf5: (s) => `${s},0 su 5 stelle`,
};
const JA: ReviewTexts = {
  reviewedIn: (c, d) => `${d}に${c}でレビュー済み`,
  date: (iso) => {
    const [y, m, d] = parts(iso);
    return `${y}年${m}月${d}日`;
  },
  verified: 'Amazonで購入',
  helpful: (_v, n) => `${n}人のお客様がこれが役に立ったと考えています`,
  totals: (r, w) => `評価の合計数 ${r}、レビューあり ${w}`,
  globalRatings: (r) => `${r}個の評価`,
  dimension: { colour: '色', size: 'サイズ', style: 'スタイル' },
  nextPage: '次のページ',
  previousPage: '前のページ',
  topReviews: 'トップレビュー',
  outOf5: (s) => `5つ星のうち${s}.0`,
};

const BY_LANGUAGE: Record<string, ReviewTexts> = { en: EN, de: DE, fr: FR, es: ES, it: IT, ja: JA };

/** The wording for a page in `language` (the storefront's texts' language) on `domain`. */
export function reviewTextsFor(domain: MarketplaceDomain, language: string): ReviewTexts {
  if (language === 'en' && (domain === 'amazon.com' || domain === 'amazon.com.mx' || domain === 'amazon.com.br')) return US;
  return BY_LANGUAGE[language] ?? EN;
}

// Where a storefront's reviews come from, in each language's words (French with its preposition).
const COUNTRIES: Record<MarketplaceDomain, [string, string]> = {
  'amazon.com': ['the United States', 'en'],
  'amazon.ca': ['Canada', 'en'],
  'amazon.com.mx': ['México', 'es'],
  'amazon.com.br': ['Brazil', 'en'],
  'amazon.co.uk': ['the United Kingdom', 'en'],
  'amazon.de': ['Deutschland', 'de'],
  'amazon.fr': ['en France', 'fr'],
  'amazon.it': ['Italia', 'it'],
  'amazon.es': ['España', 'es'],
  'amazon.nl': ['the Netherlands', 'en'],
  'amazon.se': ['Sweden', 'en'],
  'amazon.pl': ['Poland', 'en'],
  'amazon.com.be': ['Belgium', 'en'],
  'amazon.com.tr': ['Türkiye', 'en'],
  'amazon.ae': ['the United Arab Emirates', 'en'],
  'amazon.sa': ['Saudi Arabia', 'en'],
  'amazon.in': ['India', 'en'],
  'amazon.co.jp': ['日本', 'ja'],
  'amazon.sg': ['Singapore', 'en'],
  'amazon.com.au': ['Australia', 'en'],
};

/** The country of the storefront's date lines, as the line names it (`en France` on amazon.fr, in French). */
export function reviewCountry(domain: MarketplaceDomain, language: string): { lineText: string; country: string } {
  const [name, own] = COUNTRIES[domain];
  if (own === language) return { lineText: name, country: name.replace(/^en /, '') };
  // A page in another language than the storefront's own: the English name, in that language's line.
  const english = own === 'en' ? name : (ENGLISH_NAMES[domain] ?? name);
  return { lineText: language === 'fr' ? `à ${english}` : english, country: english };
}

const ENGLISH_NAMES: Partial<Record<MarketplaceDomain, string>> = {
  'amazon.com.mx': 'Mexico',
  'amazon.de': 'Germany',
  'amazon.fr': 'France',
  'amazon.it': 'Italy',
  'amazon.es': 'Spain',
  'amazon.co.jp': 'Japan',
};

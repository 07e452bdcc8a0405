import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';

/** Storefront wording the pages need, per language, as the real site words it. */
export interface Texts {
  language: string;
  htmlLang: string;
  rating(value: string): string;
  ratingsCount(count: string): string;
  inStock: string;
  onlyLeft(count: number): string;
  unavailable: string;
  sponsored: string;
  bestSellersLabel: string;
  rankEntry(rank: string, category: string): string;
  seeTop(category: string): string;
  byline(brand: string): string;
  listPriceLabel: string;
  soldBy: string;
  shipsFrom: string;
  amazonSeller: string;
  results(from: number, to: number, total: string): string;
  next: string;
  previous: string;
  noResults: string;
  aboutThisItem: string;
  decimal: string;
  /** Search card badges; Amazon's Choice as badge text + supplementary text. */
  bestSellerBadge: string;
  choiceBadge: [string, string];
  dealBadge: string;
  coupon(percent: number): string;
  /** Free delivery promise on day `day` of May 2024 (a Wednesday on the 29th). */
  delivery(day: number): string;
  /** `count` already in the storefront's number format; `n` the number. */
  bought(n: number, count: string): string;
  relatedSearches: string;
  /** Book format names: Kindle, Paperback, Hardcover, Audiobook. */
  bookFormats: [string, string, string, string];
  /** Author and translator as the byline words the contribution. */
  bookRoles: [string, string];
  /** The subtitle under a Kindle edition's title. */
  kindleEdition: string;
  /** What an audiobook format shows instead of a price. */
  audibleTrial: string;
  /** The buy box coupon's checkbox label. */
  applyCoupon(percent: number): string;
  /** First line of the header's delivery location. */
  deliverTo: string;
  /** The newer header's first line before the location, and its second line (a prompt). */
  deliveringTo: string;
  updateLocation: string;
  /** A variation swatch's title around its label. */
  clickToSelect(label: string): string;
  /** The newer list histogram: a row's star name, and its label pairing the star count with the share. */
  starName(stars: number): string;
  histogramLabel(share: number, stars: number): string;
}

const EN_WEEKDAYS = ['Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue'];
/** Weekday index (0 = Wednesday) of a day in May 2024 (May 1 was a Wednesday). */
const mayWeekday = (day: number): number => (day - 1) % 7;

const EN: Texts = {
  language: 'en',
  htmlLang: 'en-us',
  rating: (v) => `${v} out of 5 stars`,
  ratingsCount: (n) => `${n} ratings`,
  inStock: 'In Stock',
  onlyLeft: (n) => `Only ${n} left in stock - order soon.`,
  unavailable: 'Currently unavailable.',
  sponsored: 'Sponsored',
  bestSellersLabel: 'Best Sellers Rank:',
  rankEntry: (r, c) => `#${r} in ${c}`,
  seeTop: (c) => `See Top 100 in ${c}`,
  byline: (b) => `Visit the ${b} Store`,
  listPriceLabel: 'List Price:',
  soldBy: 'Sold by',
  shipsFrom: 'Ships from',
  amazonSeller: 'Amazon.com',
  results: (f, t, n) => `${f}-${t} of over ${n} results for`,
  next: 'Next',
  previous: 'Previous',
  noResults: 'No results for',
  aboutThisItem: 'About this item',
  decimal: '.',
  bestSellerBadge: 'Best Seller',
  choiceBadge: ["Amazon's ", 'Choice'],
  dealBadge: 'Limited time deal',
  coupon: (p) => `Save ${p}% with coupon`,
  delivery: (d) => `FREE delivery ${EN_WEEKDAYS[mayWeekday(d)]}, May ${d}`,
  bought: (n) => `${n >= 1000 ? `${n / 1000}K` : n}+ bought in past month`,
  relatedSearches: 'Related searches',
  bookFormats: ['Kindle', 'Paperback', 'Hardcover', 'Audiobook'],
  bookRoles: ['Author', 'Translator'],
  kindleEdition: 'Kindle Edition',
  audibleTrial: 'Free with Audible trial',
  applyCoupon: (p) => `Apply ${p}% coupon`,
  deliverTo: 'Deliver to',
  deliveringTo: 'Delivering to',
  updateLocation: 'Update location',
  clickToSelect: (l) => `Click to select ${l}`,
  starName: (n) => `${n} star`,
  histogramLabel: (p, n) => `${p} percent of reviews have ${n} stars`,
};

const DE: Texts = {
  language: 'de',
  htmlLang: 'de-de',
  rating: (v) => `${v} von 5 Sternen`,
  ratingsCount: (n) => `${n} Sternebewertungen`,
  inStock: 'Auf Lager',
  onlyLeft: (n) => `Nur noch ${n} auf Lager (mehr ist unterwegs).`,
  unavailable: 'Derzeit nicht verfügbar.',
  sponsored: 'Gesponsert',
  bestSellersLabel: 'Amazon Bestseller-Rang:',
  rankEntry: (r, c) => `Nr. ${r} in ${c}`,
  seeTop: (c) => `Siehe Top 100 in ${c}`,
  byline: (b) => `Besuche den ${b}-Store`,
  listPriceLabel: 'Unverb. Preisempf.:',
  soldBy: 'Verkäufer',
  shipsFrom: 'Versand',
  amazonSeller: 'Amazon',
  results: (f, t, n) => `${f}-${t} von über ${n} Ergebnissen oder Vorschlägen für`,
  next: 'Weiter',
  previous: 'Zurück',
  noResults: 'Keine Ergebnisse für',
  aboutThisItem: 'Über diesen Artikel',
  decimal: ',',
  bestSellerBadge: 'Bestseller',
  choiceBadge: ["Amazon's ", 'Choice'],
  dealBadge: 'Befristetes Angebot',
  coupon: (p) => `Spare ${p} % mit Gutschein`,
  delivery: (d) => `GRATIS Lieferung ${['Mi.', 'Do.', 'Fr.', 'Sa.', 'So.', 'Mo.', 'Di.'][mayWeekday(d)]}, ${d}. Mai`,
  bought: (_n, c) => `Mehr als ${c} im letzten Monat gekauft`,
  relatedSearches: 'Ähnliche Suchanfragen',
  bookFormats: ['Kindle', 'Taschenbuch', 'Gebundenes Buch', 'Hörbuch'],
  bookRoles: ['Autor', 'Übersetzer'],
  kindleEdition: 'Kindle Ausgabe',
  audibleTrial: 'Audible Probemonat',
  applyCoupon: (p) => `${p} %-Gutschein anwenden`,
  deliverTo: 'Liefern an',
  deliveringTo: 'Lieferung an',
  updateLocation: 'Standort aktualisieren',
  clickToSelect: (l) => `Wählen Sie ${l} durch Klicken aus`,
  starName: (n) => `${n} Sterne`,
  histogramLabel: (p, n) => `${p} Prozent der Bewertungen haben ${n} Sterne`,
};

const FR: Texts = {
  language: 'fr',
  htmlLang: 'fr-fr',
  rating: (v) => `${v} sur 5 étoiles`,
  ratingsCount: (n) => `${n} évaluations`,
  inStock: 'En stock',
  onlyLeft: (n) => `Il ne reste plus que ${n} exemplaire(s) en stock.`,
  unavailable: 'Actuellement indisponible.',
  sponsored: 'Sponsorisé',
  bestSellersLabel: "Classement des meilleures ventes d'Amazon :",
  rankEntry: (r, c) => `${r} en ${c}`,
  seeTop: (c) => `Voir les 100 premiers en ${c}`,
  byline: (b) => `Visiter la boutique ${b}`,
  listPriceLabel: 'Prix conseillé :',
  soldBy: 'Vendu par',
  shipsFrom: 'Expédié par',
  amazonSeller: 'Amazon',
  results: (f, t, n) => `${f}-${t} sur plus de ${n} résultats pour`,
  next: 'Suivant',
  previous: 'Précédent',
  noResults: 'Aucun résultat pour',
  aboutThisItem: 'À propos de cet article',
  decimal: ',',
  bestSellerBadge: 'Meilleure vente',
  choiceBadge: ['Choix ', "d'Amazon"],
  dealBadge: 'Offre à durée limitée',
  coupon: (p) => `Économisez ${p} % avec coupon`,
  delivery: (d) => `Livraison GRATUITE ${['mer.', 'jeu.', 'ven.', 'sam.', 'dim.', 'lun.', 'mar.'][mayWeekday(d)]} ${d} mai`,
  bought: (_n, c) => `Plus de ${c} achetés au cours du mois dernier`,
  relatedSearches: 'Recherches associées',
  bookFormats: ['Format Kindle', 'Broché', 'Relié', 'Livre audio'],
  bookRoles: ['Auteur', 'Traducteur'],
  kindleEdition: 'Format Kindle',
  audibleTrial: 'Gratuit avec l’offre d’essai Audible',
  applyCoupon: (p) => `Appliquer le coupon de ${p} %`,
  deliverTo: 'Livraison à',
  deliveringTo: 'Livraison à',
  updateLocation: "Mettre à jour l'emplacement",
  clickToSelect: (l) => `Cliquez pour sélectionner ${l}`,
  starName: (n) => `${n} étoiles`,
  histogramLabel: (p, n) => `${p} pour cent des évaluations ont ${n} étoiles`,
};

const JA: Texts = {
  language: 'ja',
  htmlLang: 'ja-jp',
  rating: (v) => `5つ星のうち${v}`,
  ratingsCount: (n) => `${n}個の評価`,
  inStock: '在庫あり。',
  onlyLeft: (n) => `残り${n}点 ご注文はお早めに`,
  unavailable: '現在在庫切れです。',
  sponsored: 'スポンサー',
  bestSellersLabel: 'Amazon 売れ筋ランキング:',
  rankEntry: (r, c) => `- ${r}位${c}`,
  seeTop: (c) => `${c}の売れ筋ランキングを見る`,
  byline: (b) => `ブランド: ${b}`,
  listPriceLabel: '参考価格:',
  soldBy: '販売元',
  shipsFrom: '出荷元',
  amazonSeller: 'Amazon.co.jp',
  results: (f, t, n) => `${n}以上の結果のうち${f}-${t}件`,
  next: '次へ',
  previous: '前へ',
  noResults: '検索に一致する商品はありませんでした:',
  aboutThisItem: 'この商品について',
  decimal: '.',
  bestSellerBadge: 'ベストセラー',
  choiceBadge: ['Amazon', 'おすすめ'],
  dealBadge: 'タイムセール',
  coupon: (p) => `${p}%OFFクーポン`,
  delivery: (d) => `お届け日: 5月${d}日 ${['水', '木', '金', '土', '日', '月', '火'][mayWeekday(d)]}曜日`,
  bought: (_n, c) => `過去1か月で${c}点以上購入されました`,
  relatedSearches: '関連検索',
  bookFormats: ['Kindle版', '文庫', '単行本', 'Audible版'],
  bookRoles: ['著', '翻訳'],
  kindleEdition: 'Kindle版',
  audibleTrial: 'Audible会員 無料',
  applyCoupon: (p) => `${p}%OFFクーポンを適用`,
  deliverTo: 'お届け先',
  deliveringTo: 'お届け先',
  updateLocation: '場所を更新',
  clickToSelect: (l) => `クリックして選択 ${l}`,
  starName: (n) => `星${n}つ`,
  histogramLabel: (p, n) => `星${n}つのレビュー ${p}%`,
};

const ES: Texts = {
  ...DE,
  language: 'es',
  htmlLang: 'es-es',
  rating: (v) => `${v} de 5 estrellas`,
  ratingsCount: (n) => `${n} valoraciones`,
  inStock: 'En stock',
  onlyLeft: (n) => `Solo queda(n) ${n} en stock.`,
  unavailable: 'No disponible.',
  sponsored: 'Patrocinado',
  bestSellersLabel: 'Clasificación en los más vendidos de Amazon:',
  rankEntry: (r, c) => `nº${r} en ${c}`,
  seeTop: (c) => `Ver el Top 100 en ${c}`,
  byline: (b) => `Visita la tienda de ${b}`,
  listPriceLabel: 'Precio recomendado:',
  soldBy: 'Vendido por',
  shipsFrom: 'Enviado por',
  results: (f, t, n) => `${f}-${t} de más de ${n} resultados para`,
  next: 'Siguiente',
  previous: 'Anterior',
  noResults: 'No hay resultados para',
  aboutThisItem: 'Acerca de este producto',
  bestSellerBadge: 'Más vendido',
  choiceBadge: ['Elección ', 'de Amazon'],
  dealBadge: 'Oferta por tiempo limitado',
  coupon: (p) => `Ahorra un ${p} % con cupón`,
  delivery: (d) => `Entrega GRATIS el ${['miércoles', 'jueves', 'viernes', 'sábado', 'domingo', 'lunes', 'martes'][mayWeekday(d)]}, ${d} de mayo`,
  bought: (_n, c) => `Más de ${c} comprados el mes pasado`,
  relatedSearches: 'Búsquedas relacionadas',
  bookFormats: ['Kindle', 'Tapa blanda', 'Tapa dura', 'Audiolibro'],
  bookRoles: ['Autor', 'Traductor'],
  kindleEdition: 'Versión Kindle',
  audibleTrial: 'Gratis con la prueba de Audible',
  applyCoupon: (p) => `Aplicar cupón del ${p} %`,
  deliverTo: 'Enviar a',
  deliveringTo: 'Entregar en',
  updateLocation: 'Actualizar ubicación',
  clickToSelect: (l) => `Haz clic para seleccionar ${l}`,
  starName: (n) => `${n} estrellas`,
  histogramLabel: (p, n) => `El ${p} por ciento de las reseñas tienen ${n} estrellas`,
};

const IT: Texts = {
  ...DE,
  language: 'it',
  htmlLang: 'it-it',
  rating: (v) => `${v} su 5 stelle`,
  ratingsCount: (n) => `${n} voti`,
  inStock: 'Disponibilità immediata',
  onlyLeft: (n) => `Solo ${n} disponibile/i - ordina subito.`,
  unavailable: 'Attualmente non disponibile.',
  sponsored: 'Sponsorizzato',
  bestSellersLabel: 'Posizione nella classifica Bestseller di Amazon:',
  rankEntry: (r, c) => `n. ${r} in ${c}`,
  seeTop: (c) => `Visualizza i Top 100 nella categoria ${c}`,
  byline: (b) => `Visita lo Store di ${b}`,
  listPriceLabel: 'Prezzo consigliato:',
  soldBy: 'Venduto da',
  shipsFrom: 'Spedito da',
  results: (f, t, n) => `${f}-${t} dei più di ${n} risultati in`,
  next: 'Successivo',
  previous: 'Precedente',
  noResults: 'Nessun risultato per',
  aboutThisItem: 'Informazioni su questo articolo',
  bestSellerBadge: 'Più venduto',
  choiceBadge: ['Scelta ', 'Amazon'],
  dealBadge: 'Offerta a tempo',
  coupon: (p) => `Risparmia il ${p}% con un coupon`,
  delivery: (d) => `Consegna GRATUITA ${['mer', 'gio', 'ven', 'sab', 'dom', 'lun', 'mar'][mayWeekday(d)]} ${d} mag`,
  bought: (_n, c) => `Più di ${c} acquistati nel mese scorso`,
  relatedSearches: 'Ricerche correlate',
  bookFormats: ['Kindle', 'Copertina flessibile', 'Copertina rigida', 'Audiolibro'],
  bookRoles: ['Autore', 'Traduttore'],
  kindleEdition: 'Formato Kindle',
  audibleTrial: 'Gratis con la prova di Audible',
  applyCoupon: (p) => `Applica coupon del ${p}%`,
  deliverTo: 'Consegna a',
  deliveringTo: 'Consegna a',
  updateLocation: 'Aggiorna posizione',
  clickToSelect: (l) => `Fai clic per selezionare ${l}`,
  starName: (n) => `${n} stelle`,
  histogramLabel: (p, n) => `Il ${p} per cento delle recensioni ha ${n} stelle`,
};

const BY_LANGUAGE: Record<string, Texts> = { en: EN, de: DE, fr: FR, ja: JA, es: ES, it: IT };

/**
 * Wording for `domain`, by its default language. Storefronts whose language has no pack here
 * (nl, sv, pl, tr, ar, pt) use English wording with their own number and money formats.
 */
export function textsFor(domain: MarketplaceDomain, storefrontLanguage?: string): Texts {
  if (storefrontLanguage !== undefined && storefrontLanguage.slice(0, 2) !== MARKETPLACES[domain].defaultLang.slice(0, 2)) {
    // A language picked in the storefront's switcher: its wording (English when there is no pack), the storefront's money.
    const picked = BY_LANGUAGE[storefrontLanguage.slice(0, 2)] ?? EN;
    return { ...picked, htmlLang: storefrontLanguage.replace('_', '-').toLowerCase() };
  }
  const language = MARKETPLACES[domain].defaultLang.slice(0, 2);
  const texts = BY_LANGUAGE[language] ?? EN;
  return texts === EN && domain !== 'amazon.com' ? { ...EN, htmlLang: MARKETPLACES[domain].defaultLang.toLowerCase() } : texts;
}

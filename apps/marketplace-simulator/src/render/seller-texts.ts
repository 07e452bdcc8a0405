/** The seller profile's wording per storefront language. */
export interface SellerTexts {
  summary(percent: string, count: string): string;
  justLaunched: string;
  periods: readonly [string, string, string, string];
  rows: readonly [string, string, string, string];
  businessName: string;
  businessAddress: string;
  /** A row after the address the address must stop before. */
  taxLabel: string;
  detailHeading: string;
  storefront(name: string): string;
  aboutHeading: string;
}

const EN: SellerTexts = {
  summary: (p, n) => `${p}% positive in the last 12 months (${n} ratings)`,
  justLaunched: 'Just launched',
  periods: ['30 days', '90 days', '12 months', 'Lifetime'],
  rows: ['Positive', 'Neutral', 'Negative', 'Count'],
  businessName: 'Business Name:',
  businessAddress: 'Business Address:',
  taxLabel: 'VAT Number:',
  detailHeading: 'Detailed Seller Information',
  storefront: (name) => `Visit the ${name} storefront`,
  aboutHeading: 'About Seller',
};

const BY_LANGUAGE: Record<string, SellerTexts> = {
  en: EN,
  de: {
    summary: (p, n) => `${p}\u00a0% positiv in den letzten 12 Monaten (${n} Bewertungen)`,
    justLaunched: 'Soeben gestartet',
    periods: ['30 Tage', '90 Tage', '12 Monate', 'Insgesamt'],
    rows: ['Positiv', 'Neutral', 'Negativ', 'Anzahl'],
    businessName: 'Geschäftsname:',
    businessAddress: 'Geschäftsadresse:',
    taxLabel: 'Umsatzsteuer-Identifikationsnummer:',
    detailHeading: 'Detaillierte Verkäuferinformationen',
    storefront: (name) => `Storefront von ${name} besuchen`,
    aboutHeading: 'Über den Verkäufer',
  },
  fr: {
    summary: (p, n) => `${p}\u00a0% d'évaluations positives au cours des 12 derniers mois (${n} évaluations)`,
    justLaunched: 'Lancement récent',
    periods: ['30 jours', '90 jours', '12 mois', 'Depuis le lancement'],
    rows: ['Positives', 'Neutres', 'Négatives', 'Nombre'],
    businessName: 'Nom commercial\u00a0:',
    businessAddress: 'Adresse commerciale\u00a0:',
    taxLabel: 'Numéro TVA\u00a0:',
    detailHeading: 'Informations détaillées sur le vendeur',
    storefront: (name) => `Visiter la boutique ${name}`,
    aboutHeading: 'À propos du vendeur',
  },
  ja: {
    summary: (p, n) => `過去12か月で${p}%が肯定的 (${n}件の評価)`,
    justLaunched: '新規出品者',
    periods: ['30日', '90日', '12か月', '全期間'],
    rows: ['高い', '普通', '低い', '件数'],
    businessName: '販売業者:',
    businessAddress: '住所:',
    taxLabel: '電話番号:',
    detailHeading: '詳細な出品者情報',
    storefront: (name) => `${name}のストアフロントを見る`,
    aboutHeading: '出品者について',
  },
  es: {
    summary: (p, n) => `${p}% positivas en los últimos 12 meses (${n} valoraciones)`,
    justLaunched: 'Recién lanzado',
    periods: ['30 días', '90 días', '12 meses', 'Total'],
    rows: ['Positivas', 'Neutras', 'Negativas', 'Número'],
    businessName: 'Nombre de la empresa:',
    businessAddress: 'Dirección comercial:',
    taxLabel: 'Número de IVA:',
    detailHeading: 'Información detallada del vendedor',
    storefront: (name) => `Visitar la tienda de ${name}`,
    aboutHeading: 'Acerca del vendedor',
  },
  it: {
    summary: (p, n) => `${p}% positivi negli ultimi 12 mesi (${n} valutazioni)`,
    justLaunched: 'Appena lanciato',
    periods: ['30 giorni', '90 giorni', '12 mesi', 'Sempre'],
    rows: ['Positivi', 'Neutri', 'Negativi', 'Conteggio'],
    businessName: "Nome dell'azienda:",
    businessAddress: "Indirizzo dell'azienda:",
    taxLabel: 'Partita IVA:',
    detailHeading: 'Informazioni dettagliate sul venditore',
    storefront: (name) => `Visita la vetrina di ${name}`,
    aboutHeading: 'Informazioni sul venditore',
  },
};

export function sellerTextsFor(language: string): SellerTexts {
  return BY_LANGUAGE[language] ?? EN;
}

import type { SimCondition, UsedGrade } from '../offers-catalog.ts';

/** The all-offers view's own wording per storefront language (the rest comes from Texts). */
export interface OffersTexts {
  condition: Record<SimCondition, string>;
  grade: Record<UsedGrade, string>;
  /** Heading of a graded offer: `Used - Like New`. */
  heading(condition: string, grade: string): string;
  free: string;
  /** A charged delivery's line before its date: `$5.99 delivery`. */
  paidDelivery(charge: string): string;
  /** The free delivery's line before its date. */
  freeDelivery: string;
  /** Delivery date of day `day` of May 2024. */
  date(day: number): string;
  notes: readonly [string, string, string, string];
  options(count: number): string;
  showMore: string;
  readMore: string;
  /** The older offer-listing page's row texts. */
  freeShipping: string;
  shipping: string;
  fulfilledByAmazon: string;
  arrives(day: number): string;
  /** The older page's line for an offer the seller ships itself. */
  shipsFromLine: string;
}

const EN: OffersTexts = {
  condition: { new: 'New', used: 'Used', collectible: 'Collectible', refurbished: 'Renewed' },
  grade: { like_new: 'Like New', very_good: 'Very Good', good: 'Good', acceptable: 'Acceptable' },
  heading: (c, g) => `${c} - ${g}`,
  free: 'FREE',
  paidDelivery: (charge) => `${charge} delivery`,
  freeDelivery: 'FREE delivery',
  date: (d) =>
    `${['Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Monday', 'Tuesday'][(d - 1) % 7]}, ${d > 31 ? 'June' : 'May'} ${d > 31 ? d - 31 : d}`,
  notes: [
    'Box opened, item never used.',
    'Light marks on the casing; fully tested.',
    'Original packaging damaged, contents complete.',
    'Minor wear, works like new.',
  ],
  options: (n) => `${n} options`,
  showMore: 'Show more offers',
  readMore: 'Read more',
  freeShipping: 'FREE Shipping',
  shipping: 'shipping',
  fulfilledByAmazon: 'Fulfillment by Amazon',
  arrives: (d) => `Arrives: ${d > 31 ? 'June' : 'May'} ${d > 31 ? d - 31 : d}`,
  shipsFromLine: 'Ships from United States.',
};

const DE: OffersTexts = {
  condition: { new: 'Neu', used: 'Gebraucht', collectible: 'Sammlerstück', refurbished: 'Generalüberholt' },
  grade: { like_new: 'Wie neu', very_good: 'Sehr gut', good: 'Gut', acceptable: 'Akzeptabel' },
  heading: (c, g) => `${c} - ${g}`,
  free: 'GRATIS',
  paidDelivery: (charge) => `Lieferung für ${charge}`,
  freeDelivery: 'GRATIS Lieferung',
  date: (d) =>
    `${['Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag', 'Montag', 'Dienstag'][(d - 1) % 7]}, ${d > 31 ? d - 31 : d}. ${d > 31 ? 'Juni' : 'Mai'}`,
  notes: [
    'Verpackung geöffnet, Artikel unbenutzt.',
    'Leichte Gebrauchsspuren am Gehäuse; geprüft.',
    'Originalverpackung beschädigt, Inhalt vollständig.',
    'Geringe Abnutzung, wie neu.',
  ],
  options: (n) => `${n} Angebote`,
  showMore: 'Weitere Angebote anzeigen',
  readMore: 'Mehr lesen',
  freeShipping: 'KOSTENLOSE Lieferung',
  shipping: 'Versand',
  fulfilledByAmazon: 'Versand durch Amazon',
  arrives: (d) => `Lieferung: ${d > 31 ? d - 31 : d}. ${d > 31 ? 'Juni' : 'Mai'}`,
  shipsFromLine: 'Versand aus Deutschland.',
};

const FR: OffersTexts = {
  condition: { new: 'Neuf', used: "D'occasion", collectible: 'De collection', refurbished: 'Reconditionné' },
  grade: { like_new: 'Comme neuf', very_good: 'Très bon', good: 'Bon', acceptable: 'Correct' },
  heading: (c, g) => `${c} - ${g}`,
  free: 'GRATUITE',
  paidDelivery: (charge) => `Livraison à ${charge}`,
  freeDelivery: 'Livraison GRATUITE',
  date: (d) => `${['mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'lundi', 'mardi'][(d - 1) % 7]} ${d > 31 ? d - 31 : d} ${d > 31 ? 'juin' : 'mai'}`,
  notes: [
    'Emballage ouvert, article jamais utilisé.',
    'Légères marques sur le boîtier ; testé.',
    "Emballage d'origine abîmé, contenu complet.",
    'Usure minime, comme neuf.',
  ],
  options: (n) => `${n} offres`,
  showMore: "Voir plus d'offres",
  readMore: 'En lire plus',
  freeShipping: 'Livraison GRATUITE',
  shipping: 'livraison',
  fulfilledByAmazon: 'Expédié par Amazon',
  arrives: (d) => `Livraison : ${d > 31 ? d - 31 : d} ${d > 31 ? 'juin' : 'mai'}`,
  shipsFromLine: 'Expédié depuis France.',
};

const JA: OffersTexts = {
  condition: { new: '新品', used: '中古品', collectible: 'コレクター商品', refurbished: '整備済み品' },
  grade: { like_new: 'ほぼ新品', very_good: '非常に良い', good: '良い', acceptable: '可' },
  heading: (c, g) => `${c} - ${g}`,
  free: '無料',
  paidDelivery: (charge) => `配送料 ${charge}`,
  freeDelivery: '無料配送',
  date: (d) => `${d > 31 ? 6 : 5}月${d > 31 ? d - 31 : d}日`,
  notes: ['開封済み、未使用です。', '本体に軽い傷があります。動作確認済み。', '外箱に傷みがあります。付属品は揃っています。', '使用感は少なく、ほぼ新品です。'],
  options: (n) => `${n}件の出品`,
  showMore: 'さらに表示',
  readMore: '続きを読む',
  freeShipping: '配送料無料',
  shipping: '配送料',
  fulfilledByAmazon: 'Amazon配送センターから発送',
  arrives: (d) => `お届け日: ${d > 31 ? 6 : 5}月${d > 31 ? d - 31 : d}日`,
  shipsFromLine: '発送元: 日本',
};

const ES: OffersTexts = {
  condition: { new: 'Nuevo', used: 'De segunda mano', collectible: 'Coleccionable', refurbished: 'Reacondicionado' },
  grade: { like_new: 'Como nuevo', very_good: 'Muy bueno', good: 'Bueno', acceptable: 'Aceptable' },
  heading: (c, g) => `${c} - ${g}`,
  free: 'GRATIS',
  paidDelivery: (charge) => `Entrega por ${charge}`,
  freeDelivery: 'Entrega GRATIS',
  date: (d) =>
    `${['miércoles', 'jueves', 'viernes', 'sábado', 'domingo', 'lunes', 'martes'][(d - 1) % 7]}, ${d > 31 ? d - 31 : d} de ${d > 31 ? 'junio' : 'mayo'}`,
  notes: [
    'Caja abierta, artículo sin usar.',
    'Ligeras marcas en la carcasa; probado.',
    'Embalaje original dañado, contenido completo.',
    'Desgaste mínimo, como nuevo.',
  ],
  options: (n) => `${n} ofertas`,
  showMore: 'Mostrar más ofertas',
  readMore: 'Leer más',
  freeShipping: 'Envío GRATIS',
  shipping: 'envío',
  fulfilledByAmazon: 'Gestionado por Amazon',
  arrives: (d) => `Llega: ${d > 31 ? d - 31 : d} de ${d > 31 ? 'junio' : 'mayo'}`,
  shipsFromLine: 'Enviado desde España.',
};

const IT: OffersTexts = {
  condition: { new: 'Nuovo', used: 'Usato', collectible: 'Da collezione', refurbished: 'Ricondizionato' },
  grade: { like_new: 'Come nuovo', very_good: 'Ottime condizioni', good: 'Buone condizioni', acceptable: 'Accettabile' },
  heading: (c, g) => `${c} - ${g}`,
  free: 'GRATUITA',
  paidDelivery: (charge) => `Consegna a ${charge}`,
  freeDelivery: 'Consegna GRATUITA',
  date: (d) =>
    `${['mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica', 'lunedì', 'martedì'][(d - 1) % 7]} ${d > 31 ? d - 31 : d} ${d > 31 ? 'giugno' : 'maggio'}`,
  notes: [
    'Confezione aperta, articolo mai usato.',
    'Lievi segni sulla scocca; testato.',
    'Confezione originale danneggiata, contenuto completo.',
    'Usura minima, come nuovo.',
  ],
  options: (n) => `${n} offerte`,
  showMore: 'Mostra altre offerte',
  readMore: 'Leggi di più',
  freeShipping: 'Spedizione GRATUITA',
  shipping: 'spedizione',
  fulfilledByAmazon: 'Spedito da Amazon',
  arrives: (d) => `Arriva: ${d > 31 ? d - 31 : d} ${d > 31 ? 'giugno' : 'maggio'}`,
  shipsFromLine: 'Spedito da Italia.',
};

const BY_LANGUAGE: Record<string, OffersTexts> = { en: EN, de: DE, fr: FR, ja: JA, es: ES, it: IT };

/** The offers wording of a Texts language (`Texts.language`); English for the others, as the pages do. */
export function offersTextsFor(language: string): OffersTexts {
  return BY_LANGUAGE[language] ?? EN;
}

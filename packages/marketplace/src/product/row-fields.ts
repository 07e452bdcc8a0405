// Product information labels of the fields read out of the rows, in the storefront languages.
const MANUFACTURER = /^(?:Manufacturer|Hersteller|Fabricant|Fabricante|Produttore|Fabrikant|Tillverkare|Producent|Üretici|メーカー)$/i;
const MODEL_NUMBER =
  /^(?:Item model number|Model number|Modellnummer|Numéro du modèle de l'article|Numéro de modèle|Número de modelo del producto|Número do modelo|Numero modello articolo|Modelnummer artikel|Modelnummer|型番|Model numarası)$/i;
const DIMENSIONS =
  /^(?:Product Dimensions|Item Dimensions|Package Dimensions|Dimensions|Produktabmessungen|Artikelabmessungen|Verpackungsabmessungen|Abmessungen|Dimensions du produit|Dimensions de l'article|Dimensions du colis|Dimensiones del producto|Dimensiones del paquete|Dimensioni prodotto|Dimensioni del collo|Productafmetingen|Afmetingen|Produktmått|Wymiary produktu|梱包サイズ|製品サイズ)(?:\s*(?:L x W x H|LxWxH|L x l x h|L x B x H|Lar x Lon x Alt))?$/i;
const WEIGHT =
  /^(?:Item Weight|Weight|Artikelgewicht|Gewicht|Poids de l'article|Poids du produit|Poids|Peso del producto|Peso del artículo|Peso articolo|Peso|Gewicht van het artikel|Artikelvikt|Vikt|Waga produktu|商品の重量|重量)$/i;
const FIRST_AVAILABLE =
  /^(?:Date First Available|Im Angebot von Amazon\.[a-z.]+ seit|Date de mise en ligne sur Amazon\.[a-z.]+|Producto en Amazon\.[a-z.]+ desde|Disponibile su Amazon\.[a-z.]+ a partire dal|Datum eerste beschikbaarheid|Sinds|Fecha de disponibilidad|Amazon\.co\.jp での取り扱い開始日|Tillgänglig från)$/i;

export type RowField = 'manufacturer' | 'modelNumber' | 'dimensions' | 'weight' | 'firstAvailable';

/** Which record field a product information row fills, by its label; undefined for the others. */
export function rowField(label: string): RowField | undefined {
  if (MODEL_NUMBER.test(label)) return 'modelNumber';
  if (MANUFACTURER.test(label)) return 'manufacturer';
  if (DIMENSIONS.test(label)) return 'dimensions';
  if (WEIGHT.test(label)) return 'weight';
  if (FIRST_AVAILABLE.test(label)) return 'firstAvailable';
  return undefined;
}

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: readonly (readonly string[])[] = [
  ['january', 'januar', 'janvier', 'enero', 'gennaio', 'januari', 'jan', 'janv', 'ene', 'gen', 'jän', 'jänner'],
  ['february', 'februar', 'février', 'febrero', 'febbraio', 'februari', 'feb', 'févr', 'fév'],
  ['march', 'märz', 'mars', 'marzo', 'maart', 'mar', 'mär', 'mrt'],
  ['april', 'avril', 'abril', 'aprile', 'apr', 'avr', 'abr'],
  ['may', 'mai', 'mayo', 'maggio', 'mei', 'mag'],
  ['june', 'juni', 'juin', 'junio', 'giugno', 'jun', 'giu'],
  ['july', 'juli', 'juillet', 'julio', 'luglio', 'jul', 'juil', 'lug'],
  ['august', 'août', 'agosto', 'augustus', 'aug', 'ago'],
  ['september', 'septembre', 'septiembre', 'settembre', 'sep', 'sept', 'set'],
  ['october', 'oktober', 'octobre', 'octubre', 'ottobre', 'oct', 'okt', 'ott'],
  ['november', 'novembre', 'noviembre', 'nov'],
  ['december', 'dezember', 'décembre', 'diciembre', 'dicembre', 'dec', 'dez', 'déc', 'dic'],
];
MONTH_NAMES.forEach((names, i) => {
  for (const name of names) MONTHS[name] = i + 1;
});

/**
 * ISO date (`YYYY-MM-DD`) of a date as product pages print it: `November 18, 2020`,
 * `18. November 2020`, `18 novembre 2020`, `18 de noviembre de 2020`, `2020/11/18`. Undefined for
 * anything else (never a guess between day and month).
 */
export function isoDateOf(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  let match = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(t);
  if (match) return iso(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^([\p{L}]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/u.exec(t);
  if (match) return iso(Number(match[3]), MONTHS[match[1] as string], Number(match[2]));
  match = /^(\d{1,2})\.?\s+(?:de\s+)?([\p{L}]+)\.?\s+(?:de\s+)?(\d{4})$/u.exec(t);
  if (match) return iso(Number(match[3]), MONTHS[match[2] as string], Number(match[1]));
  return undefined;
}

function iso(year: number, month: number | undefined, day: number): string | undefined {
  if (month === undefined || day < 1 || day > 31 || year < 1900) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

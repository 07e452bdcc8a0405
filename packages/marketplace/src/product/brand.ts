// Byline wording per storefront language; the capture group is the brand.
const BYLINE_PATTERNS: readonly RegExp[] = [
  /^Visit the (.+?) Store$/i,
  /^(?:Brand|Marke|Marque|Marca|Merk|Märke|Marka|ブランド)\s*[:：]\s*(.+)$/i,
  /^Besuche den (.+?)-Store$/i,
  /^Visiter la boutique (.+)$/i,
  /^Visita la tienda de (.+)$/i,
  /^Visita lo Store di (.+)$/i,
  /^Visite a loja (?:da |do |de )?(.+)$/i,
  /^Bezoek de (.+?)-winkel$/i,
  /^Besök (.+?)-butiken$/i,
  /^Odwiedź sklep (.+)$/i,
  /^(.+?) Store'u ziyaret edin$/i,
  /^(.+?)のストアを表示$/,
];

/**
 * Brand from the `#bylineInfo` text. A byline that matches no known wording is taken as the brand
 * only when it looks like a bare name; author bylines (`Jane Doe (Author)`) and lists are not brands.
 */
export function brandFromByline(byline: string): string | undefined {
  const text = byline.trim();
  if (text === '') return undefined;
  for (const pattern of BYLINE_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].trim();
  }
  if (/[(),]/.test(text) || text.length > 60 || /^(?:by|von|de|par|di|door)\s/i.test(text)) return undefined;
  return text;
}

import type { OfferCondition } from './types.ts';

// Tried in this order: "Used - Like New" and "Gebraucht - Wie neu" name `new` after `used`, and a
// collectible or renewed heading may carry a grade that reads like either.
const CONDITIONS: readonly [OfferCondition, RegExp][] = [
  [
    'refurbished',
    /renewed|refurbished|generalüberholt|reconditionné|reacondicionado|ricondizionato|rigenerato|gereviseerd|renoverad|odnowiony|yenilenmiş|整備済み|再生品|مجدد/i,
  ],
  [
    'collectible',
    /collectible|collectable|sammlerstück|sammlerartikel|de collection|coleccionable|da collezione|verzamelobject|samlarobjekt|kolekcjonerski|koleksiyon|コレクター|コレクション|قابل للجمع/i,
  ],
  ['used', /used|segunda mano|gebraucht|d['’]occasion|occasion|usado|usato|gebruikt|begagnad|używany|ikinci el|kullanılmış|中古|مستعمل/i],
  ['new', /\bnew\b|^neu|neuf|^nuevo|^nuovo|^novo|^nieuw|^ny\b|^nowy|^yeni|新品|جديد/i],
];

/** The condition a heading names (`Used - Very Good`, `Neu`, `新品`), if one of the four. */
export function offerCondition(heading: string): OfferCondition | undefined {
  for (const [condition, pattern] of CONDITIONS) if (pattern.test(heading)) return condition;
  return undefined;
}

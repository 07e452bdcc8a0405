import type { BestSellersRank } from './types.ts';

const BSR_LABEL =
  /^(?:Amazon\s+)?(?:Best\s*Sellers?\s*Rank|Bestseller-Rang|Classement des meilleures ventes d'Amazon|Clasificación en los más vendidos de Amazon|Posizione nella classifica Bestseller di Amazon|Plaats in bestsellerlijst|Rangordning för bästsäljare|Ranking najlepiej sprzedających się|En Çok Satanlar Sıralaması|Ranking dos mais vendidos|売れ筋ランキング)/i;
const REVIEWS_LABEL =
  /^(?:Customer Reviews|Kundenrezensionen|Commentaires client|Opiniones de los clientes|Recensioni dei clienti|カスタマーレビュー|Avaliações de clientes)/i;
// "(See Top 100 in Electronics)", "(Siehe Top 100 in ...)", "(...の売れ筋ランキングを見る)"
const TOP_LIST_LINK = /\([^()]*(?:100|ランキング)[^()]*\)/g;
const ENTRY =
  /^(?:#|Nr\.?|n\.?\s*º?|nº|n°|No\.?)?\s*(\d[\d.,\s\u00a0\u202f]*?)\s*(?:位|\s(?:in|en|dans|em|i|w|de|en la categoría|nella categoria|içinde)\s)\s*(.+)$/i;
// Bidi marks and the colon that Amazon pads labels with ("ASIN ‏ : ‎ B0…").
const LABEL_PADDING = /^[\s\u200e\u200f:：-]+|[\s\u200e\u200f:：]+$/g;

export function cleanLabel(label: string): string {
  return label.replace(LABEL_PADDING, '').trim();
}

export function isBestSellersLabel(label: string): boolean {
  return BSR_LABEL.test(label);
}

export function isReviewsLabel(label: string): boolean {
  return REVIEWS_LABEL.test(label);
}

/**
 * Ranks from the Best Sellers Rank value, one entry per line: `#1,234 in Electronics (See Top 100
 * in Electronics)`, `Nr. 12 in Laptops`, `1 234 en High-Tech`, `1,234位パソコン・周辺機器`.
 */
export function parseBestSellersRank(value: string): BestSellersRank[] {
  const ranks: BestSellersRank[] = [];
  for (const rawLine of value.replace(TOP_LIST_LINK, '\n').split(/\n|(?=\s#\d)|(?=\sNr\.\s?\d)|(?=\s-\s\d)/)) {
    const line = rawLine
      .replace(/^[\s\u200e\u200f:\-–]+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    const match = ENTRY.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const rank = Number(match[1].replace(/\D/g, ''));
    const category = match[2].trim();
    if (Number.isSafeInteger(rank) && rank > 0 && category !== '') ranks.push({ rank, category });
  }
  return ranks;
}

// Checked before IN_STOCK because "indisponible"/"no disponible" contain "disponible".
const OUT_OF_STOCK =
  /unavailable|out of stock|nicht verfügbar|indisponible|no disponible|non disponibile|niet beschikbaar|inte tillgänglig|niedostępn|mevcut değil|stokta yok|在庫切れ|取り扱いできません|indisponível|غير متوفر/i;
const IN_STOCK =
  /in stock|left in stock|available to ship|auf lager|nur noch|en stock|disponible|disponibile|disponibilità immediata|op voorraad|i lager|w magazynie|dostępn|stokta|在庫あり|残り|em estoque|متوفر/i;

/** In-stock flag from the availability message; undefined when the wording is not recognised. */
export function inStockFrom(availability: string): boolean | undefined {
  if (OUT_OF_STOCK.test(availability)) return false;
  if (IN_STOCK.test(availability)) return true;
  return undefined;
}

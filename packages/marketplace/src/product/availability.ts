// Checked before IN_STOCK because "indisponible"/"no disponible" contain "disponible".
const OUT_OF_STOCK =
  /unavailable|out of stock|nicht verfügbar|indisponible|no disponible|non disponibile|niet beschikbaar|inte tillgänglig|niedostępn|mevcut değil|stokta yok|在庫切れ|取り扱いできません|indisponível|غير متوفر/i;
// "Usually ships within 6 to 10 days": in stock with a supplier, orderable now.
const IN_STOCK =
  /in stock|left in stock|available to ship|usually ships within|usually dispatched within|auf lager|nur noch|gewöhnlich versandfertig|en stock|habituellement expédié|disponible|disponibile|disponibilità immediata|generalmente spedito|op voorraad|i lager|w magazynie|dostępn|stokta|在庫あり|残り|以内に発送|em estoque|متوفر/i;

/** In-stock flag from the availability message; undefined when the wording is not recognised. */
export function inStockFrom(availability: string): boolean | undefined {
  if (OUT_OF_STOCK.test(availability)) return false;
  if (IN_STOCK.test(availability)) return true;
  return undefined;
}

/**
 * What never belongs in a record's text: markup, script or style source, character references left
 * undecoded, and the storefront's interface phrases (links, prompts, popovers) in its languages.
 * This list is the checker's own, kept apart from the parsers' so it can catch what they miss.
 */
const MARKUP: readonly [RegExp, string][] = [
  [/<\/?[a-z][a-z0-9]*[\s>/]/i, 'markup'],
  [/&(?:[a-z]{2,8}|#\d{2,6}|#x[0-9a-f]{2,5});/i, 'character reference'],
  [/\bP\.when\(|\bfunction\s*\(|=>\s*\{|\bvar\s+\w+\s*=|\bwindow\.\w+/, 'script'],
  [/[.#]?[a-z-]+\s*\{[^}]*:[^}]*\}/i, 'style'],
];

const INTERFACE: readonly RegExp[] = [
  /^(?:update|select|choose|enter) (?:your )?(?:location|address|zip|postcode)/i,
  /^(?:standort|adresse) (?:aktualisieren|auswählen)/i,
  /^actualizar (?:ubicación|dirección)/i,
  /^atualizar (?:cep|localização|endereço)/i,
  /^(?:mettre à jour|choisir) (?:l'|votre )?(?:adresse|emplacement)/i,
  /^aggiorna (?:la )?posizione/i,
  /^(?:click|tap) to select\b/i,
  /durch klicken aus(?:wählen)?$/i,
  /^(?:cliquez|haz clic|clique|fai clic)\b.*(?:sélectionner|seleccionar|selecionar|selezionare)/i,
  /^(?:discover|entdecken sie|découvrez|descubre|descubra|scopri)\b.*\b(?:on|bei|sur|en|na|su) amazon/i,
  /^(?:see|read|show) (?:more|less|all)\b/i,
  /^(?:weiterlesen|mehr lesen|en lire plus|leer más|leggi di più|ver mais)$/i,
  /^visit the .* store$/i,
  /^(?:learn more|más información|mehr erfahren|en savoir plus|saiba mais)$/i,
  /^(?:follow|folgen|suivre|seguir)$/i,
];

export interface ChromeHit {
  path: string;
  value: string;
  why: string;
}

/** Every text of `value` (walked to its leaves) that is markup or interface chrome, with where it sits. */
export function chromeIn(value: unknown, path = ''): ChromeHit[] {
  if (typeof value === 'string') {
    // URLs hold `&` and `=` legitimately; they are checked elsewhere.
    if (/^https?:\/\//.test(value)) return [];
    for (const [pattern, why] of MARKUP) if (pattern.test(value)) return [{ path, value, why }];
    const text = value.trim();
    for (const pattern of INTERFACE) if (pattern.test(text)) return [{ path, value, why: 'interface phrase' }];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => chromeIn(item, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      key === 'url' || key === 'images' || key === 'image' ? [] : chromeIn(item, path ? `${path}.${key}` : key),
    );
  }
  return [];
}

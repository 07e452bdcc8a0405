/**
 * The storefront's own interface text, in its languages: prompts, links and popover lines that sit
 * next to values in the markup and are no value. Parsers drop a value that is only such a phrase,
 * and cut the phrase off one it wraps ("Click to select Red" is the label "Red").
 */

/** An expander's prompt: "Read more", "See more", in every storefront language. */
export const EXPANDER_PROMPT =
  /^(?:read|see|show) (?:more|less)|^(?:weiterlesen|mehr (?:lesen|anzeigen)|weniger (?:lesen|anzeigen)|en (?:lire|voir) (?:plus|moins)|lire la suite|voir (?:plus|moins)|leer (?:más|menos)|ver (?:más|menos|mais)|leia mais|leggi (?:di più|meno)|mostra (?:di più|meno)|meer (?:lezen|weergeven)|minder weergeven|läs mer|visa (?:mer|mindre)|czytaj (?:więcej|dalej)|pokaż (?:więcej|mniej)|devamını oku|daha (?:fazla|az) göster|もっと(?:読む|見る)|続きを読む|閉じる|اقرأ المزيد|عرض المزيد)\s*[›»]?$/i;

/** The header's location prompt, shown instead of a location the shopper has not set. */
export const LOCATION_PROMPT =
  /^(?:update (?:your )?location|select (?:your )?address|choose (?:your )?(?:location|address)|enter (?:your )?(?:zip|postal|post) ?code|standort aktualisieren|adresse (?:auswählen|wählen)|mettre à jour (?:l['’]emplacement|la localisation|votre adresse)|choisir (?:votre )?adresse|sélectionnez votre adresse|actualizar (?:ubicación|la ubicación|código postal)|eleg(?:ir|e) (?:tu |la )?dirección|selecciona(?:r)? (?:tu |la )?dirección|atualizar (?:cep|localização|local|endereço)|selecione (?:o )?(?:seu )?endereço|aggiorna (?:la )?posizione|seleziona (?:il tuo )?indirizzo|locatie bijwerken|selecteer (?:je |uw )?adres|uppdatera plats|välj (?:din )?adress|zaktualizuj lokalizację|wybierz adres|konumu güncelle|adres(?:inizi)? seçin|تحديث الموقع|اختر عنوانك|お届け先住所を選択|住所を選択|場所を更新)$/i;

/**
 * The header's lead-in before a location (`Delivering to Rockville 20852`, `Liefern an Berlin
 * 10115`). A lead-in with nothing after it, or followed by a greeting's name, names no place.
 */
export const DELIVERY_LEAD_IN =
  /^(?:deliver(?:ing)? to|ship(?:ping)? to|liefern an|lieferung an|lieferadresse|livraison à|livrer à|entregar (?:en|a)|entregando (?:em|en|a)|enviar a|entrega em|enviar para|consegna a|spedizione a|bezorgen in|leveren aan|leverera till|dostawa do|teslimat adresi|التوصيل إلى|お届け先)[:\s]*/i;

/** A variation's title around its label: "Click to select Red", "Wählen Sie Erdbeere durch Klicken aus". */
const SELECTION_WRAPPERS: readonly RegExp[] = [
  /^(?:click|tap) to select\s+(.+)$/i,
  /^(?:wählen sie|wähle)\s+(.+?)\s+durch (?:klicken|tippen) aus$/i,
  /^klicke(?:n sie)?,? um\s+(.+?)\s+auszuwählen$/i,
  /^cliquez pour sélectionner\s+(.+)$/i,
  /^(?:haz|haga) clic para seleccionar\s+(.+)$/i,
  /^clique para selecionar\s+(.+)$/i,
  /^fai clic per selezionare\s+(.+)$/i,
  /^klik om\s+(.+?)\s+te selecteren$/i,
  /^klicka för att välja\s+(.+)$/i,
  /^kliknij,? aby wybrać\s+(.+)$/i,
  /^(.+?) seçmek için tıklayın$/i,
  /^(.+?)を選択するにはクリックしてください$/,
  /^クリックして(.+?)を選択$/,
  /^クリックして選択\s*(.+)$/,
];

/** The label a variation's title wraps, or the title itself when it wraps none. */
export function selectionLabel(title: string): string {
  const text = title.trim();
  for (const wrapper of SELECTION_WRAPPERS) {
    const label = wrapper.exec(text)?.[1];
    if (label) return label.trim();
  }
  return text;
}

/** A popover's pointer to more of a contributor or brand: "Discover Maggie Nelson on Amazon". */
export const DISCOVERY_LINK =
  /^(?:discover|explore|visit|see|entdecken sie|entdecke|découvrez|descubre|descubra|explora|scopri|ontdek|upptäck|odkryj|keşfedin|اكتشف)\b.*\b(?:on|at|bei|auf|sur|en|na|no|su|op|på|w|de|في)\s+amazon\b/i;

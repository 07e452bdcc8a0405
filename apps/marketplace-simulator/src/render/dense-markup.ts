import type { Rng } from '../rng.ts';

/**
 * Markup as dense as a real page's: long class lists, many `data-*` attributes (metrics ids, JSON
 * state, image maps), inline SVG icons with long paths. Real captured pages carry 150–500 bytes per
 * tag and 7k–23k attributes, where the classic filler's markup is a plain menu. None of this holds
 * data the parsers extract; it only has to cost what real markup costs to tokenize.
 */

const WORDS = ['deal', 'prime', 'fresh', 'global', 'store', 'brand', 'new', 'top', 'gift', 'kids', 'home', 'tech', 'style', 'sport'];
const ICON_NAMES = ['cart', 'star', 'chevron', 'close', 'search', 'heart', 'share', 'info', 'truck', 'shield'];

function hex(rng: Rng, length: number): string {
  let out = '';
  while (out.length < length) out += rng.int(0, 0xffffff).toString(16).padStart(6, '0');
  return out.slice(0, length);
}

/** An SVG path of `points` segments: the kind of `d` attribute an inlined icon font carries. */
function svgPath(rng: Rng, points: number): string {
  const parts: string[] = [`M${rng.int(0, 24)}.${rng.int(0, 99)} ${rng.int(0, 24)}.${rng.int(0, 99)}`];
  for (let i = 0; i < points; i++) {
    parts.push(
      `c${rng.int(-9, 9)}.${rng.int(0, 99)} ${rng.int(-9, 9)}.${rng.int(0, 99)} ${rng.int(-9, 9)}.${rng.int(0, 99)} ${rng.int(-9, 9)}.${rng.int(0, 99)}`,
    );
  }
  return `${parts.join('')}z`;
}

export function inlineSvg(rng: Rng, paths: number, pointsPerPath: number): string {
  const name = rng.pick(ICON_NAMES);
  const body: string[] = [];
  for (let i = 0; i < paths; i++) {
    body.push(`<path fill-rule="evenodd" clip-rule="evenodd" d="${svgPath(rng, pointsPerPath)}" fill="currentColor"></path>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" class="a-icon-svg a-icon-${name} aok-align-center" aria-hidden="true" focusable="false" data-icon="${name}" role="img"><title>${name}</title>${body.join('')}</svg>`;
}

/** Attributes of a metrics-instrumented widget (`data-csa-*`, `data-cel-widget`, …), as serialized by a browser. */
function widgetAttrs(rng: Rng, id: string): string {
  const state = `{&quot;slot&quot;:&quot;${id}&quot;,&quot;ref&quot;:&quot;${hex(rng, 16)}&quot;,&quot;weblab&quot;:&quot;${rng.pick(WORDS).toUpperCase()}_${rng.int(100000, 999999)}&quot;}`;
  return (
    `class="a-section a-spacing-none ${rng.pick(WORDS)}-widget s-flex-${rng.int(1, 9)} _${hex(rng, 6)}_${rng.pick(WORDS)}_${hex(rng, 5)} celwidget" ` +
    `data-csa-c-type="widget" data-csa-c-slot-id="${id}" data-csa-c-content-id="amzn1.sym.${hex(rng, 8)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 12)}" ` +
    `data-csa-c-id="${hex(rng, 6)}-${hex(rng, 6)}-${hex(rng, 6)}" data-cel-widget="${id}" data-a-state="${state}"`
  );
}

/** One recommendation tile: a product card of dense markup that is no search result and no buy box. */
function tile(rng: Rng, slot: string, i: number, svgPoints: number): string {
  const img = `https://m.media-amazon.com/images/I/${rng.int(41, 91)}${hex(rng, 8)}L._AC_SR${rng.int(160, 320)},${rng.int(160, 320)}_.jpg`;
  return (
    `<li class="a-carousel-card ${rng.pick(WORDS)}-card" role="listitem" aria-setsize="24" aria-posinset="${i + 1}" data-p13n-position="${i}" style="margin-left: ${rng.int(0, 16)}px; width: ${rng.int(180, 240)}px;">` +
    `<div ${widgetAttrs(rng, `${slot}_${i}`)}><a class="a-link-normal aok-block ${rng.pick(WORDS)}-link" tabindex="-1" href="/gp/${rng.pick(WORDS)}/${hex(rng, 10)}?ref_=${slot}_${i}&amp;pf_rd_r=${hex(rng, 20).toUpperCase()}&amp;pf_rd_p=${hex(rng, 8)}-${hex(rng, 4)}" data-ref="${slot}_${i}">` +
    `<img alt="" src="${img}" class="a-dynamic-image ${rng.pick(WORDS)}-image" height="160" width="160" loading="lazy" data-a-dynamic-image="{&quot;${img}&quot;:[${rng.int(160, 320)},${rng.int(160, 320)}]}"></a>` +
    `<div class="a-row a-size-small a-color-secondary ${rng.pick(WORDS)}-row" data-rows="2" aria-hidden="true">${svgPoints > 0 ? inlineSvg(rng, 1, svgPoints) : ''}<span class="a-truncate" data-a-word-break="normal" data-a-max-rows="2" data-a-overflow-marker="&amp;hellip;" style="line-height: 1.3em !important; max-height: 2.6em;"><span class="a-truncate-full a-offscreen">Recommended ${rng.pick(WORDS)} item ${i}</span><span class="a-truncate-cut" aria-hidden="true">Recommended ${rng.pick(WORDS)} item ${i}</span></span></div></div></li>`
  );
}

export interface DenseOptions {
  /** Approximate bytes of markup to produce. */
  bytes: number;
  /** Points per inline SVG path inside each tile (0: no SVG in tiles). */
  svgPoints: number;
}

/** Carousels of tiles up to about `bytes` of markup. */
export function denseCarousels(rng: Rng, options: DenseOptions): string {
  const parts: string[] = [];
  let size = 0;
  for (let c = 0; size < options.bytes; c++) {
    const slot = `desktop-dp-sims_${c}`;
    const head = `<div id="${slot}_feature_div" ${widgetAttrs(rng, slot)}><div class="a-carousel-container a-carousel-display-swap" data-a-carousel-options="{&quot;name&quot;:&quot;${slot}&quot;,&quot;set_size&quot;:24,&quot;minimum_gutter_width&quot;:12}" data-a-display-strategy="swap"><h2 class="a-carousel-heading a-inline-block">Inspired by your ${rng.pick(WORDS)} history</h2><ol class="a-carousel" role="list" aria-busy="false">`;
    parts.push(head);
    size += head.length;
    for (let i = 0; i < 24; i++) {
      const card = tile(rng, slot, i, options.svgPoints);
      parts.push(card);
      size += card.length;
    }
    parts.push('</ol></div></div>');
  }
  return parts.join('');
}

/** The navigation mega-menu as a browser serializes it: every item with its metrics attributes. */
export function denseMenu(rng: Rng, items: number): string {
  const parts: string[] = [
    `<div id="hmenu-container" class="hmenu-visible" aria-hidden="true" data-menu-version="${hex(rng, 8)}"><ul class="hmenu hmenu-visible">`,
  ];
  for (let i = 0; i < items; i++) {
    parts.push(
      `<li class="hmenu-item-wrapper" data-menu-id="${i % 40}" data-ref-tag="nav_em_1_${i}"><a href="/s?bbn=${rng.int(1000, 99999999)}&amp;rh=n%3A${rng.int(1000, 99999999)}&amp;ref_=nav_em_${i}" class="hmenu-item hmenu-${rng.pick(WORDS)}" data-csa-c-type="link" data-csa-c-slot-id="nav_em_${i}" data-csa-c-content-id="${rng.pick(WORDS)}-${hex(rng, 8)}" aria-label="${rng.pick(WORDS)} department ${i}"><div class="hmenu-item-text">Department ${i}</div></a></li>`,
    );
  }
  parts.push('</ul></div>');
  return parts.join('');
}

/** A JSON state blob (`<script type="application/json">`) of about `bytes`: the page state a client app hydrates from. */
export function jsonState(rng: Rng, id: string, bytes: number): string {
  const entries: string[] = [];
  let size = 0;
  for (let j = 0; size < bytes; j++) {
    const entry = `{"asin":"B0${rng.int(10000000, 99999999)}","title":"Item ${j} ${rng.pick(WORDS)} <b>${rng.pick(WORDS)}</b>","price":{"amount":${rng.int(100, 99999) / 100},"currency":"USD"},"image":"https://m.media-amazon.com/images/I/${hex(rng, 11)}._AC_SX${rng.int(300, 900)}_.jpg","badges":["${rng.pick(WORDS)}","${rng.pick(WORDS)}"],"ref":"${hex(rng, 24)}"}`;
    entries.push(entry);
    size += entry.length + 1;
  }
  return `<script type="application/json" id="${id}" data-a-state="{&quot;key&quot;:&quot;${id}&quot;}">{"items":[${entries.join(',')}],"version":${rng.int(1, 99)}}</script>`;
}

/** A module-loader script of about `bytes` (the classic filler's kind). */
export function loaderScript(rng: Rng, name: string, bytes: number): string {
  const lines: string[] = [`<script type="text/javascript">P.when('A', 'ready').register('${name}', function(A) {`];
  let size = 0;
  for (let j = 0; size < bytes; j++) {
    const line = `  var v${j} = A.$('#${name}-${j}'); if (v${j}.length > 0) { v${j}.attr('data-state', JSON.stringify({"k":"${hex(rng, 8)}","i":${j}})); }`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('});</script>');
  return lines.join('\n');
}

/** A stylesheet of about `bytes`. */
export function inlineStyle(rng: Rng, bytes: number): string {
  const rules: string[] = [];
  let size = 0;
  for (let j = 0; size < bytes; j++) {
    const rule = `._${hex(rng, 6)}_${rng.pick(WORDS)}_${j}{margin:${rng.int(0, 40)}px;color:#${hex(rng, 6)}}`;
    rules.push(rule);
    size += rule.length;
  }
  return `<style type="text/css">${rules.join('')}</style>`;
}

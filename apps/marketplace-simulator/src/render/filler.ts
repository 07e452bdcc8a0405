import { createRng, type Rng } from '../rng.ts';

/**
 * The bulk of a real product or search page: inline scripts (module loaders, state JSON, metrics)
 * and inline styles, plus hidden navigation markup. Generated deterministically and cached, since
 * it does not depend on the product or keyword.
 */
export interface Filler {
  head: string;
  bodyStart: string;
  bodyEnd: string;
}

const cache = new Map<number, Filler>();
const IDENTS = ['dp', 'twister', 'buybox', 'acr', 'sims', 'nav', 'csm', 'ue', 'aplus', 'hmenu', 'swf', 'cf', 'atf', 'btf'];

function scriptBlock(rng: Rng, i: number): string {
  const name = `${rng.pick(IDENTS)}${i}`;
  const lines: string[] = [`<script type="text/javascript">`, `P.when('A', 'ready', '${name}-assets').register('${name}', function(A) {`];
  const count = rng.int(40, 90);
  for (let j = 0; j < count; j++) {
    const key = `${rng.pick(IDENTS)}_${j}`;
    lines.push(
      `  var ${key} = A.$('#${name}-${j}'); if (${key}.length > 0 && ${j} < ${count}) { ${key}.attr('data-state', JSON.stringify({"k":"${key}","i":${j},"v":${rng.int(0, 99999)}})); }`,
      `  A.on('a:popover:show:${key}', function(e){ if (e && e.popover && e.popover.id !== "${j}") { return '<div class="a-popover-inner">' + e.popover.id + '<\\/div>'; } });`,
    );
  }
  lines.push(`  return { name: '${name}', ready: true };`, `});`, `</script>`);
  return lines.join('\n');
}

function stateBlock(rng: Rng, i: number): string {
  const entries: string[] = [];
  const count = rng.int(150, 300);
  for (let j = 0; j < count; j++) {
    entries.push(
      `{"id":"${rng.int(100000, 999999)}","asin":"B0${rng.int(10000000, 99999999)}","w":${rng.int(100, 1500)},"h":${rng.int(100, 1500)},"url":"https://m.media-amazon.com/images/I/${rng.int(10, 99)}x${j}L._AC_SX${rng.int(300, 900)}_.jpg"}`,
    );
  }
  return `<script type="a-state" data-a-state="{&quot;key&quot;:&quot;state-${i}&quot;}">{"items":[${entries.join(',')}]}</script>`;
}

function styleBlock(rng: Rng, i: number): string {
  const rules: string[] = [];
  const count = rng.int(300, 600);
  for (let j = 0; j < count; j++) {
    const prop = rng.pick(['margin', 'padding', 'border-radius', 'line-height', 'font-size', 'width']);
    rules.push(`.a-${rng.pick(IDENTS)}-${i}-${j}{${prop}:${rng.int(0, 40)}px!important;color:#${rng.int(0x100000, 0xffffff).toString(16)}}`);
    if (j % 25 === 0) rules.push(`@media (max-width:${rng.int(600, 1400)}px){.s-${i}-${j} .a-price>span{display:none}}`);
  }
  return `<style type="text/css">${rules.join('')}</style>`;
}

function hiddenMenu(rng: Rng): string {
  const parts: string[] = [
    '<div id="hmenu-container" class="hmenu-visible" aria-hidden="true"><div id="hmenu-canvas"><ul class="hmenu hmenu-visible" data-menu-id="1">',
  ];
  for (let i = 0; i < 900; i++) {
    const node = rng.int(100000, 99999999);
    parts.push(
      `<li><a href="/b/?_encoding=UTF8&amp;node=${node}&amp;ref_=nav_em_${i}" class="hmenu-item" data-menu-id="${i % 30}" data-ref-tag="nav_em_1_1_${i}"><div>Department ${i} &amp; more</div></a></li>`,
    );
  }
  parts.push('</ul></div></div>');
  return parts.join('');
}

/** "Customers also viewed" style carousels: full product cards that are not results or the buy box. */
function carousels(rng: Rng): string {
  const parts: string[] = [];
  for (let c = 0; c < 4; c++) {
    parts.push(
      `<div id="sims-carousel-${c}_feature_div" class="celwidget"><div class="a-carousel-container"><h2 class="a-carousel-heading">Related items ${c}</h2><ol class="a-carousel" role="list">`,
    );
    for (let i = 0; i < 20; i++) {
      const asin = `B0C${String(rng.int(1000000, 9999999))}`;
      const cents = rng.int(500, 99999);
      parts.push(
        `<li class="a-carousel-card" role="listitem" aria-setsize="20" aria-posinset="${i + 1}"><div data-asin="${asin}" class="a-section a-spacing-none p13n-asin" data-p13n-asin-metadata="{&quot;ref&quot;:&quot;pd_sim_${c}_${i}&quot;,&quot;asin&quot;:&quot;${asin}&quot;}">` +
          `<a class="a-link-normal aok-block" href="/dp/${asin}/ref=pd_sim_${c}_${i}"><div class="a-section a-spacing-mini _cDEzb_noop_3Xbw5"><img alt="Related product ${i}" src="https://m.media-amazon.com/images/I/${rng.int(41, 81)}x${i}L._AC_UL160_SR160,160_.jpg" class="a-dynamic-image p13n-sc-dynamic-image" height="160px" data-a-dynamic-image="{&quot;https://m.media-amazon.com/images/I/x${i}L._AC_UL160_.jpg&quot;:[160,160]}"></div>` +
          `<div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1 p13n-sc-truncate-desktop-type2">Related product ${c}-${i} with a long descriptive title</div></a>` +
          `<div class="a-row"><div class="a-icon-row"><a class="a-link-normal" title="4.${i % 10} out of 5 stars" href="/product-reviews/${asin}"><i class="a-icon a-icon-star-small a-star-small-4-5 aok-align-top"><span class="a-icon-alt">4.${i % 10} out of 5 stars</span></i> <span class="a-size-small">${rng.int(1, 9999)}</span></a></div></div>` +
          `<div class="a-row"><a class="a-link-normal a-text-normal" href="/dp/${asin}"><span class="a-size-base a-color-price"><span class="_cDEzb_p13n-sc-price_3mJ9Z">$${(cents / 100).toFixed(2)}</span></span></a></div>` +
          `<span class="a-price" data-a-size="m" data-a-color="base"><span class="a-offscreen">$${(cents / 100).toFixed(2)}</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">${Math.floor(cents / 100)}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${String(cents % 100).padStart(2, '0')}</span></span></span></div></li>`,
      );
    }
    parts.push('</ol></div></div>');
  }
  return parts.join('');
}

function footer(rng: Rng): string {
  const parts: string[] = [
    '<div id="navFooter" class="navLeftFooter nav-sprite-v1" role="contentinfo"><div class="navFooterVerticalColumn navAccessibility" role="presentation"><div class="navFooterVerticalRow navAccessibility">',
  ];
  for (let col = 0; col < 4; col++) {
    parts.push(`<div class="navFooterLinkCol navAccessibility"><div class="navFooterColHead">Column ${col}</div><ul>`);
    for (let i = 0; i < 12; i++)
      parts.push(
        `<li class="nav_first"><a href="/gp/help/customer/display.html?nodeId=${rng.int(100000, 999999)}&amp;ref_=footer_${col}_${i}" class="nav_a">Help topic ${col}.${i}</a></li>`,
      );
    parts.push('</ul></div>');
  }
  parts.push(
    '</div></div><div class="navFooterLine navFooterLinkLine navFooterPadItemLine"><span>© 1996-2024, Amazon.com, Inc. or its affiliates</span></div></div>',
  );
  return parts.join('');
}

/**
 * Filler of roughly `targetBytes` (1–2 MB for a realistic page), about 70 % script/style text as
 * measured on real pages. Variant `n` selects one of a few cached layouts of it.
 */
export function filler(targetBytes: number, variant: number): Filler {
  const key = targetBytes * 16 + (variant % 4);
  const cached = cache.get(key);
  if (cached) return cached;
  const rng = createRng(key);
  const bodyStart = hiddenMenu(rng);
  const bodyEndParts = [carousels(rng), footer(rng)];
  const headParts: string[] = [];
  let size = bodyStart.length + bodyEndParts.reduce((sum, part) => sum + part.length, 0);
  for (let i = 0; size < targetBytes; i++) {
    const block = i % 7 === 0 ? styleBlock(rng, i) : i % 5 === 0 ? stateBlock(rng, i) : scriptBlock(rng, i);
    // Real pages load some scripts at the end of <body>; keep a third of them there.
    if (i % 3 === 2) bodyEndParts.push(block);
    else headParts.push(block);
    size += block.length;
  }
  const result = { head: headParts.join('\n'), bodyStart, bodyEnd: bodyEndParts.join('\n') };
  cache.set(key, result);
  return result;
}

import { describe, expect, it } from 'vitest';
import { parseProductPage } from '../src/index.ts';

// Small pages in our own markup, each with one trait of real pages that used to leak into records.
const ORIGIN = 'https://www.amazon.de';
const page = (body: string): string => `<html><body><input type="hidden" id="ASIN" value="B000000001">${body}</body></html>`;
const parse = (body: string) => parseProductPage(page(body), { origin: ORIGIN });

describe('product pages: what a reader sees, not the chrome around it', () => {
  it('takes no author from the byline popover, only the visible name and its role', () => {
    const product = parse(`<span id="productTitle">Die Argonauten</span><div id="bylineInfo">von <span class="author">
      <div class="a-popover-preload" id="a-popover-x"><span class="a-size-medium">Maggie Nelson <span>(Autor)</span></span>
      <a href="/e/B001">Entdecken Sie Maggie Nelson bei Amazon</a><div>Finden Sie alle Bücher</div></div>
      <span class="a-declarative"><a class="a-link-normal contributorNameID" href="/e/B001">Maggie Nelson</a></span>
      <span class="contribution"><span class="a-color-secondary">(Autor)</span></span></span></div>`);
    expect(product.authors).toEqual([{ name: 'Maggie Nelson', role: 'Autor' }]);
  });

  it('reads a book description that only a noscript holds, as text, without the style and script around it', () => {
    const product = parse(`<span id="productTitle">Die Argonauten</span><div id="bookDescription_feature_div">
      <script type="text/undefined">body { font-size: 14px; }</script>
      <noscript><div> Es ist die Geschichte einer Liebe &#x2013; <b>queer</b> &amp; frei.</div><em></em></noscript>
      <div id="outer_postBodyPS"><div id="bookDesc_iframe_wrapper"></div></div>
      <a class="a-link-expander"><span id="bdSeeAllPrompt">Mehr lesen</span><span id="bdSeeLessPrompt" style="display: none;">Weniger lesen</span></a>
      <script>P.when('DynamicIframe').execute(function(D){ var x = "Es%20ist"; });</script></div>`);
    expect(product.description).toBe('Es ist die Geschichte einer Liebe – queer & frei.');
  });

  it('keeps script text out of every field: a badge block holding only a script is no badge', () => {
    const product = parse(`<span id="productTitle">Lamp</span><div id="acBadge_feature_div"><script>P.when('ac').execute(function(){});</script></div>
      <div id="zeitgeistBadge_feature_div"><a class="badge-link"><i class="a-icon p13n-best-seller-badge">#1 Bestseller</i></a></div>`);
    expect(product.badges).toEqual(['best_seller']);
  });

  it('takes the title of a digital edition without the format shown beside it', () => {
    const product = parse(`<h1 id="title" class="a-size-large"><span id="ebooksProductTitle" class="a-size-extra-large">Die Argonauten</span>
      <span class="a-size-large a-color-secondary">Kindle Edition</span></h1>`);
    expect(product.title).toBe('Die Argonauten');
  });

  it('drops zero-width characters from values', () => {
    const product = parse(`<span id="productTitle">Lamp</span><span id="glow-ingress-line2">12159\u200c Berlin</span>`);
    expect(product.deliverTo).toBe('12159 Berlin');
  });
});

describe('one check of every value before it is stored', () => {
  const header = (line1: string, line2: string) =>
    `<span id="productTitle">Lamp</span><div id="glow-ingress-block"><span id="glow-ingress-line1">${line1}</span><span id="glow-ingress-line2">${line2}</span></div>`;

  it.each([
    ['Hello', 'Select your address', undefined],
    ['Deliver to', 'Update location', undefined],
    ['Entregar em', 'Atualizar CEP', undefined],
    ['Enviar a', 'Actualizar ubicación', undefined],
    ['Liefern an', 'Standort aktualisieren', undefined],
    ['お届け先', 'お届け先住所を選択', undefined],
    ['Delivering to Rockville 20852', 'Update location', 'Rockville 20852'],
    ['Delivering to Dubai', 'Update location', 'Dubai'],
    ['Entregando em Bela Vista', 'Atualizar local', 'Bela Vista'],
    ['Lieferung an Kim', '12159 Berlin', '12159 Berlin'],
    ['Deliver to Kim', 'Update location', undefined],
  ])('reads the header lines %j / %j as the location %j', (line1, line2, location) => {
    expect(parse(header(line1, line2)).deliverTo).toBe(location);
  });

  it('keeps a coupon only when it says what it takes off; a promotion banner in its place is none', () => {
    const coupon = (text: string) =>
      parse(`<span id="productTitle">Lamp</span><div id="promoPriceBlockMessage_feature_div"><label>${text}</label></div>`).coupon;
    expect(coupon('Aplique o cupom de 15%')).toBe('Aplique o cupom de 15%');
    expect(coupon('Promoção')).toBeUndefined();
  });

  it('decodes references a page escaped twice and drops source code from every text', () => {
    const product = parse(`<span id="productTitle">Jack &amp;amp; Jones Pullover</span>
      <div id="productDetails_techSpec_section_1"><table><tr><th>Material</th><td>Wolle</td></tr><tr><th>Pflege</th><td>.care { color: red; }</td></tr></table></div>`);
    expect(product.title).toBe('Jack & Jones Pullover');
    expect(product.specifications).toEqual({ Material: 'Wolle' });
  });
});

describe('product pages: newer layouts', () => {
  it('reads "About this item" and the fact rows of the product facts block', () => {
    const product = parse(`<span id="productTitle">Shirt</span><div id="productFactsDesktop_feature_div"><div id="productFactsDesktopExpander">
      <div class="a-fixed-left-grid product-facts-detail"><div class="a-fixed-left-grid-inner"><div class="a-fixed-left-grid-col a-col-left"><span class="a-color-base">Material</span></div>
      <div class="a-fixed-left-grid-col a-col-right"><span class="a-color-base">100% Baumwolle</span></div></div></div>
      <hr class="a-divider-normal"><h3 class="product-facts-title">Über diesen Artikel</h3>
      <ul class="a-unordered-list a-vertical a-spacing-small"><li><span class="a-list-item">Weich und leicht</span></li><li><span class="a-list-item">Waschbar bei 40 °C</span></li></ul>
      </div></div>`);
    expect(product.features).toEqual(['Weich und leicht', 'Waschbar bei 40 °C']);
    expect(product.specifications).toEqual({ Material: '100% Baumwolle' });
  });

  it('pairs each star count with its own share in the list histogram whose rows repeat every star name', () => {
    const names = '<span>5 Sterne</span><span>4 Sterne</span><span>3 Sterne</span><span>2 Sterne</span><span>1 Stern</span>';
    const words = ['', 'one', 'two', 'three', 'four', 'five'];
    const rows = [
      [5, 71],
      [4, 14],
      [3, 7],
      [2, 3],
      [1, 5],
    ]
      .map(
        ([stars, share]) =>
          `<li><span class="a-list-item"><a aria-label="${share} Prozent der Bewertungen haben ${stars} Sterne" href="/product-reviews/B000000001?filterByStar=${words[stars as number]}_star">
          <div class="a-section">${names}</div><div class="a-meter" role="progressbar"><div class="a-meter-bar" style="width: ${share}%"></div></div><span>${share} %</span></a></span></li>`,
      )
      .join('');
    const product = parse(`<span id="productTitle">Lamp</span><ul id="histogramTable" class="a-unordered-list a-nostyle a-vertical">${rows}</ul>`);
    expect(product.starHistogram).toEqual({ fiveStar: 71, fourStar: 14, threeStar: 7, twoStar: 3, oneStar: 5 });
  });
});

describe('the currency from the page itself', () => {
  it("reads a bare $ on a page of amazon.com.mx as pesos, whatever origin fetched it, by the page's own marketplace id", () => {
    const html = `<html><head><script>var ue_mid = 'A1AM78C64UM0Y8', ue_sid = '1';</script></head><body><input type="hidden" id="ASIN" value="B000000001">
      <span id="productTitle">Cafetera</span><div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">$1,299.00</span></span></div></body></html>`;
    const fromStandIn = parseProductPage(html, { origin: 'http://127.0.0.1:4010' });
    expect(fromStandIn.price).toEqual({ amount: 1299, currency: 'MXN', raw: '$1,299.00' });
    expect(fromStandIn.currency).toBe('MXN');
    // Without the page's own data, the storefront asked for decides, then the symbol.
    const plain = html.replace("var ue_mid = 'A1AM78C64UM0Y8', ", '');
    expect(parseProductPage(plain, { origin: 'http://127.0.0.1:4010', marketplace: 'amazon.com.mx' }).price?.currency).toBe('MXN');
    expect(parseProductPage(plain, { origin: 'http://127.0.0.1:4010' }).price?.currency).toBe('USD');
  });
});

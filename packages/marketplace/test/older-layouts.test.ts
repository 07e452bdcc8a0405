import { describe, expect, it } from 'vitest';
import { parseProductPage, readProductPage } from '../src/index.ts';

// Small pages in our own markup with the traits of older product pages.
const ORIGIN = 'https://www.amazon.co.uk';

describe('product pages from before 2014', () => {
  const rows = [
    [5, 67, 712],
    [4, 15, 162],
    [3, 5, 55],
    [2, 3, 35],
    [1, 8, 86],
  ]
    .map(
      ([stars, share, count]) =>
        `<tr><td align="left"><a href="/product-reviews/B005890FUI?filterBy=add${stars}Star">${stars} star</a>:</td><td class="tiny" title="${share}%"><div style="width:${share}%"></div></td><td align="right">${count}</td></tr>`,
    )
    .join('');
  const html = `<html><body><input type="hidden" id="ASIN" name="ASIN" value="B005890FUI">
    <div class="buying"><h1 class="parseasinTitle"><span id="btAsinTitle">Kindle Touch</span></h1></div>
    <span class="tiny"><span class="crAvgStars"><span class="asinReviewsSummary"><a href="/product-reviews/B005890FUI/ref=dp_top_cm_cr_acr_img"><span class="swSprite s_star_4_5 " title="4.3 out of 5 stars"><span>4.3 out of 5 stars</span></span></a></span></span>(<a href="/product-reviews/B005890FUI/ref=dp_top_cm_cr_acr_txt">1,050 customer reviews</a>)</span>
    <div id="contentDiv_reviewHistoPop_B005890FUI_3193" style="display:none;"><table><tbody><tr><td><div><b>1,050 Reviews</b></div><table><tbody>${rows}</tbody></table></td></tr></tbody></table></div>
    <div class="buying"><span class="availGreen">Available from <a href="/gp/offer-listing/B005890FUI">these sellers</a>.</span></div>
    <div id="kindle-feature-bullets-atf"><div><ul><li><span>Most-advanced E Ink display</span></li><li><span>Built in Wi-Fi</span></li></ul></div></div></body></html>`;

  it('reads the title, rating, review count, histogram, availability and bullets of the kitsune layout', () => {
    const reading = readProductPage(html, { origin: ORIGIN });
    expect(reading.recognized).toBe(true);
    expect(reading.product).toMatchObject({
      title: 'Kindle Touch',
      rating: 4.3,
      reviewCount: 1050,
      availability: 'Available from these sellers.',
      features: ['Most-advanced E Ink display', 'Built in Wi-Fi'],
      starHistogram: { fiveStar: 67, fourStar: 15, threeStar: 5, twoStar: 3, oneStar: 8 },
    });
    // "Available from these sellers" says where, not whether: no stock statement.
    expect(reading.product.inStock).toBeUndefined();
  });
});

describe('older wording and headings', () => {
  const page = (body: string) => parseProductPage(`<html><body><input type="hidden" id="ASIN" value="0099586738">${body}</body></html>`, { origin: ORIGIN });

  it("takes a book's format from the secondary line beside its title in the heading", () => {
    const product = page(`<h1 id="title" class="a-size-large"><span id="productTitle">Dust: (Wool Trilogy 3)</span>
      <span class="a-size-medium a-color-secondary a-text-normal">Paperback</span><span class="a-size-medium a-color-secondary a-text-normal">&ndash; 13 Feb 2014</span></h1>`);
    expect(product.format).toBe('Paperback');
  });

  it('counts "usually ships within" as in stock and reads the seller of "Verkauf und Versand durch"', () => {
    const shipsLater = page(
      `<span id="productTitle">CD</span><div id="availability"><span class="a-size-medium">Usually ships within 6 to 10 days.</span></div>`,
    );
    expect(shipsLater.inStock).toBe(true);
    const german = parseProductPage(
      `<html><body><input type="hidden" id="ASIN" value="0356510344"><span id="productTitle">Buch</span><div id="merchant-info">Verkauf und Versand durch Amazon. <span>Geschenkverpackung verfügbar.</span></div></body></html>`,
      { origin: 'https://www.amazon.de' },
    );
    expect(german.seller).toBe('Amazon');
    expect(german.fulfilledByAmazon).toBe(true);
  });

  it('reads the seller up to the end of its sentence: a name with spaces, a name with a dot, or before "and fulfilled by"', () => {
    const seller = (text: string) =>
      parseProductPage(
        `<html><body><input type="hidden" id="ASIN" value="B07C76F3P2"><span id="productTitle">Echo</span><div id="merchant-info">${text}</div></body></html>`,
        {
          origin: 'https://www.amazon.de',
        },
      ).seller;
    expect(seller('Verkauf und Versand durch Amazon EU Sarl. <span>Geschenkverpackung verfügbar.</span>')).toBe('Amazon EU Sarl');
    expect(seller('Ships from and sold by Amazon.com. Gift-wrap available.')).toBe('Amazon.com');
    expect(seller('Sold by Nordvik Audio GmbH and Fulfilled by Amazon.')).toBe('Nordvik Audio GmbH');
  });

  it('lists a swatch not available in the chosen combination by the product its link opens', () => {
    const product = parseProductPage(
      `<html><body><input type="hidden" id="ASIN" value="B07C76F3P2"><span id="productTitle">Echo Input</span><form id="twister"><div id="variation_item_form"><ul>
        <li title="Wählen Sie Echo Input durch Klicken aus" data-defaultAsin="B07C76F3P2" class="swatchSelect"><span>Echo Input</span></li>
        <li title="Wählen Sie Echo Input + Lautsprecher durch Klicken aus" data-defaultAsin="" data-dp-url="/dp/B07L69F8SQ/ref=twister_B07H6BXFF5" class="swatchUnavailable"><span>Echo Input + Lautsprecher</span></li>
      </ul></div></form></body></html>`,
      { origin: 'https://www.amazon.de' },
    );
    expect(product.variations).toEqual([
      { asin: 'B07C76F3P2', dimension: 'item_form', label: 'Echo Input', selected: true },
      { asin: 'B07L69F8SQ', dimension: 'item_form', label: 'Echo Input + Lautsprecher', selected: false },
    ]);
  });

  it("recognises a saved page that lost its hidden ASIN and canonical link by its title widget's ASIN", () => {
    const saved = `<html><body><div id="title_feature_div" class="celwidget" data-csa-c-slot-id="title_feature_div" data-csa-c-asin="B0F1KTWXVW"><h1 id="title"><span id="productTitle"> Fechadura Eletrônica </span></h1></div></body></html>`;
    const reading = readProductPage(saved, { origin: 'https://www.amazon.com.br' });
    expect(reading).toMatchObject({ recognized: true, product: { asin: 'B0F1KTWXVW', title: 'Fechadura Eletrônica' } });
    expect(readProductPage(saved.replace(' data-csa-c-asin="B0F1KTWXVW"', ''), { origin: 'https://www.amazon.com.br' }).recognized).toBe(false);
  });

  it("reads a 2019 buy box's own price when the page shows no other", () => {
    const product = parseProductPage(
      `<html><body><input type="hidden" id="ASIN" value="B000000001"><span id="productTitle">Lamp</span><div id="priceInsideBuyBox_feature_div"><div class="a-section"><span id="price_inside_buybox" class="a-size-medium a-color-price">
        $29.99
      </span></div></div></body></html>`,
      { origin: 'https://www.amazon.com' },
    );
    expect(product.price).toEqual({ amount: 29.99, currency: 'USD', raw: '$29.99' });
  });
});

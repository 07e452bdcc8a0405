import type { Book, BookFormat } from '../catalog.ts';
import { formatMoney, localPrice } from '../money.ts';
import type { StorefrontProduct } from '../storefront-view.ts';
import type { Texts } from '../texts.ts';
import { esc } from './html.ts';
import { availabilityBox, breadcrumbs, description, desktopImages, histogram, rankLines, reviewsSummary, tabularBuybox } from './product-layouts.ts';

const FORMAT_ORDER: readonly BookFormat[] = ['kindle', 'paperback', 'hardcover', 'audiobook'];

export function bookFormatName(format: BookFormat, texts: Texts): string {
  return texts.bookFormats[FORMAT_ORDER.indexOf(format)] as string;
}

function swatches(view: StorefrontProduct, book: Book): string {
  const items = book.formats
    .map((f) => {
      const selected = f.format === book.selected;
      const name = esc(bookFormatName(f.format, view.texts));
      const price =
        f.priceUsdCents === undefined
          ? `<span class="a-size-base a-color-secondary">${esc(view.texts.audibleTrial)}</span>`
          : `<span class="a-size-base a-color-price">${esc(formatMoney(localPrice(f.priceUsdCents, view.domain), view.domain).text)}</span>`;
      const href = selected ? 'javascript:void(0)' : `/dp/${view.product.asin}/ref=tmm_${f.format}_swatch_0`;
      return `<div id="tmm-grid-swatch-${f.format.toUpperCase()}" class="a-column a-span3 swatchElement ${selected ? 'selected' : 'unselected'}"><span class="a-button a-button-toggle${selected ? ' a-button-selected' : ''}"><span class="a-button-inner"><a href="${href}" class="a-button-text" role="button"><span class="slot-title"><span aria-label="${name} Format:">${name}</span></span><span class="slot-price">${price}</span></a></span></span></div>`;
    })
    .join('\n');
  return `<div id="tmmSwatches" class="a-section a-spacing-none"><div class="a-row a-spacing-none">${items}</div></div>`;
}

/** The popover card's link to more of a contributor, in the storefront's wording. */
function discoverText(view: StorefrontProduct, name: string): string {
  const byLanguage: Record<string, string> = {
    de: `Entdecken Sie ${name} bei Amazon`,
    fr: `Découvrez ${name} sur Amazon`,
    es: `Descubre ${name} en Amazon`,
    it: `Scopri ${name} su Amazon`,
    ja: `Amazon で ${name} の作品を見る`,
  };
  return byLanguage[view.texts.language] ?? `Discover ${name} on Amazon`;
}

function byline(view: StorefrontProduct, book: Book): string {
  const authors = book.authors
    .map((a, i) => {
      const role = view.texts.bookRoles[a.role === 'author' ? 0 : 1];
      const comma = i < book.authors.length - 1 ? '<span class="a-color-secondary">, </span>' : '';
      // The first author's card, preloaded for its popover: the name again, a "discover" link, a prompt.
      const card =
        i === 0
          ? `<div class="a-popover-preload" id="a-popover-contributor-${i}"><div class="a-section"><span class="a-size-medium">${esc(a.name)} <span class="a-color-secondary">(${esc(role)})</span></span><div class="a-row"><a class="a-link-normal" href="/e/B00AUTHOR${i}">${esc(discoverText(view, a.name))}</a></div></div></div>`
          : '';
      return `<span class="author notFaded">${card}<a class="a-link-normal contributorNameID" href="/s?field-author=${encodeURIComponent(a.name)}">${esc(a.name)}</a> <span class="contribution" spacing="none"><span class="a-color-secondary">(${esc(role)})</span></span>${comma}</span>`;
    })
    .join('');
  return `<div id="bylineInfo_feature_div"><div id="bylineInfo" class="a-section a-spacing-micro bylineHidden feature">${authors}</div></div>`;
}

/**
 * The books buy box: a print format shows its price as plain text (`span#price`, `#listPrice`),
 * no `a-price` widget; a Kindle edition shows none here — its price is only the format's.
 */
function buyBox(view: StorefrontProduct, book: Book): string {
  if (book.selected === 'kindle' || !view.price) return `<div id="buybox"><input type="hidden" id="ASIN" name="ASIN" value="${view.product.asin}"></div>`;
  const list = view.listPrice
    ? `<div class="a-section a-spacing-small"><span class="a-color-secondary">${esc(view.texts.listPriceLabel)} </span><span id="listPrice" class="a-color-secondary a-text-strike">${esc(formatMoney(view.listPrice, view.domain).text)}</span></div>`
    : '';
  return `<div id="buybox"><div id="buyNewSection" class="rbbHeader dp-accordion-row"><h5><div class="a-box-inner"><span class="a-text-bold">${esc(bookFormatName(book.selected, view.texts))}</span> <span id="price" class="a-size-medium a-color-price header-price a-text-normal">${esc(formatMoney(view.price, view.domain).text)}</span></div></h5></div>${list}${availabilityBox(view)}${tabularBuybox(view)}<input type="hidden" id="ASIN" name="ASIN" value="${view.product.asin}"></div>`;
}

function bookDetails(view: StorefrontProduct): string {
  const [top, sub] = rankLines(view, view.domain);
  const row = (label: string, value: string): string =>
    `<li><span class="a-list-item"><span class="a-text-bold">${esc(label)} &rlm; : &lrm;</span><span>${esc(value)}</span></span></li>`;
  return `<div id="detailBulletsWrapper_feature_div" class="celwidget" data-feature-name="detailBullets"><div id="detailBullets_feature_div"><ul class="a-unordered-list a-nostyle a-vertical a-spacing-none detail-bullet-list">
${row('ASIN', view.product.asin)}${row('Publisher', `${view.product.brand} Books`)}</ul></div>
<ul class="a-unordered-list a-nostyle a-vertical a-spacing-none detail-bullet-list"><li><span class="a-list-item"><span class="a-text-bold">${esc(view.texts.bestSellersLabel)}</span> ${top}<ul class="a-unordered-list a-nostyle a-vertical zg_hrsr"><li><span class="a-list-item">${sub}</span></li></ul></span></li></ul></div>`;
}

/** A book or e-book detail page (books have their own page, whatever the product layouts). */
export function bookContent(view: StorefrontProduct, book: Book): string {
  const subtitle = book.selected === 'kindle' ? view.texts.kindleEdition : bookFormatName(book.selected, view.texts);
  return `<div id="dp" class="book ${view.texts.htmlLang}"><div id="dp-container" class="a-container" role="main">${breadcrumbs(view)}
<div id="ppd"><div id="leftCol">${desktopImages(view, true)}</div>
<div id="centerCol"><div id="booksTitle"><h1 id="title" class="a-size-large a-spacing-none"><span id="productTitle" class="a-size-extra-large celwidget">${esc(view.product.title)}</span> <span id="productSubtitle" class="a-size-large a-color-secondary celwidget">${esc(subtitle)}</span></h1>
${byline(view, book)}</div>${reviewsSummary(view, view.domain)}${swatches(view, book)}</div>
<div id="rightCol">${buyBox(view, book)}</div></div>
${description(view)}${bookDetails(view)}${histogram(view, 'table')}</div></div>`;
}

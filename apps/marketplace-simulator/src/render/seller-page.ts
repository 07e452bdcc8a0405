import type { MarketplaceDomain } from '@crawl/marketplace';
import { deliveryLocation } from '../delivery-location.ts';
import { formatCount } from '../money.ts';
import { hashString } from '../rng.ts';
import { type PeriodFeedback, type SimSeller, storefrontHref } from '../seller-profiles.ts';
import { textsFor } from '../texts.ts';
import { esc } from './html.ts';
import { type PageSize, pageShell } from './page-shell.ts';
import { type SellerTexts, sellerTextsFor } from './seller-texts.ts';

/** `classic`: the profile before 2022 (`#sellerName`, rows in lists); `redesign`: the 2022 profile (`#seller-name`, a detail section). */
export const SELLER_LAYOUTS = ['classic', 'redesign'] as const;
export type SellerLayout = (typeof SELLER_LAYOUTS)[number];

export interface RenderSellerOptions {
  seller: SimSeller;
  domain: MarketplaceDomain;
  size: PageSize;
  layout?: SellerLayout | undefined;
  language?: string | undefined;
  deliveryZip?: string | undefined;
}

export function sellerLayoutFor(id: string): SellerLayout {
  return SELLER_LAYOUTS[hashString(`seller-layout\u0000${id}`) % SELLER_LAYOUTS.length] as SellerLayout;
}

function share(value: number, count: number): string {
  return count === 0 ? '-' : `${value}%`;
}

function feedbackTable(seller: SimSeller, t: SellerTexts, domain: MarketplaceDomain): string {
  const f = seller.feedback;
  if (f === undefined) return '';
  const periods: PeriodFeedback[] = [f.days30, f.days90, f.months12, f.lifetime];
  const row = (label: string, cell: (p: PeriodFeedback) => string) =>
    `<tr><td class="a-text-left">${esc(label)}</td>${periods.map((p) => `<td class="a-text-right"><span>${esc(cell(p))}</span></td>`).join('')}</tr>`;
  return `<table id="feedback-summary-table" class="a-normal a-spacing-none feedback-table">
<thead><tr><th></th>${t.periods.map((p) => `<th class="a-text-right">${esc(p)}</th>`).join('')}</tr></thead><tbody>
${row(t.rows[0], (p) => share(p.positive, p.count))}
${row(t.rows[1], (p) => share(p.neutral, p.count))}
${row(t.rows[2], (p) => share(p.negative, p.count))}
${row(t.rows[3], (p) => (p.count === 0 ? '-' : formatCount(p.count, domain)))}
</tbody></table>`;
}

function summary(seller: SimSeller, t: SellerTexts, domain: MarketplaceDomain, id: string): string {
  const f = seller.feedback;
  const stars =
    f === undefined
      ? ''
      : `<i class="a-icon a-icon-star a-star-${Math.round(f.months12.positive / 20)}"><span class="a-icon-alt">${(f.months12.positive / 20).toFixed(1)}</span></i>`;
  const text = f === undefined ? esc(t.justLaunched) : esc(t.summary(String(f.months12.positive), formatCount(f.months12.count, domain)));
  return `<div id="${id}" class="a-row a-spacing-small">${stars}<span class="a-size-base">${text}</span></div>`;
}

/**
 * A seller's profile page (`/sp?seller=<id>`): name, feedback summary and table, detailed seller
 * information and the storefront link, in the storefront's language.
 */
export function renderSellerPage(options: RenderSellerOptions): { html: string; layout: SellerLayout } {
  const { seller, domain } = options;
  const texts = textsFor(domain, options.language);
  const t = sellerTextsFor(texts.language);
  const layout = options.layout ?? sellerLayoutFor(seller.id);
  const name = seller.name ?? texts.amazonSeller;
  const link = `<a class="a-link-normal" href="${esc(storefrontHref(seller.id, domain))}">${esc(t.storefront(name))}</a>`;
  const business = seller.business;
  let content: string;
  if (layout === 'classic') {
    const rows = business
      ? `<div class="a-row a-spacing-medium"><div class="a-box"><div class="a-box-inner"><h3>${esc(t.detailHeading)}</h3><ul class="a-unordered-list a-nostyle a-vertical">
<li><span class="a-list-item"><span class="a-text-bold">${esc(t.businessName)}</span>${esc(business.name)}</span></li>
<li><span class="a-list-item"><span class="a-text-bold">${esc(t.businessAddress)}</span><ul class="a-unordered-list a-nostyle a-vertical">${business.address.map((line) => `<li><span class="a-list-item">${esc(line)}</span></li>`).join('')}</ul></span></li></ul></div></div></div>`
      : '';
    content = `<div id="seller-profile-container" class="a-section"><div class="a-row"><div class="a-column a-span9"><h1 id="sellerName" class="a-size-extra-large">${esc(name)}</h1>
${seller.amazon ? '' : summary(seller, t, domain, 'seller-feedback-summary')}<div id="products-link" class="a-row">${link}</div></div></div>
${rows}${feedbackTable(seller, t, domain)}</div>`;
  } else {
    const detail = business
      ? `<div id="page-section-detail-seller-info" class="a-box a-spacing-medium"><div class="a-box-inner"><div class="a-row"><div class="a-column a-span12"><h3>${esc(t.detailHeading)}</h3>
<div class="a-row a-spacing-none"><span class="a-text-bold">${esc(t.businessName)}</span><span>${esc(business.name)}</span></div>
<div class="a-row a-spacing-none"><span class="a-text-bold">${esc(t.businessAddress)}</span></div>
${business.address.map((line) => `<div class="a-row a-spacing-none indent-left"><span>${esc(line)}</span></div>`).join('\n')}
<div class="a-row a-spacing-none"><span class="a-text-bold">${esc(t.taxLabel)}</span><span>${esc(`${business.address[business.address.length - 1]}${hashString(seller.id) % 1_000_000_000}`)}</span></div>
</div></div></div></div>`
      : '';
    content = `<div id="seller-profile-container" class="a-section seller-profile-redesign"><div class="a-row"><h1 id="seller-name" class="a-size-extra-large a-text-bold">${esc(name)}</h1></div>
${seller.amazon ? '' : summary(seller, t, domain, 'seller-info-feedback-summary')}
<div id="page-section-about-seller" class="a-box"><div class="a-box-inner"><h3>${esc(t.aboutHeading)}</h3><p>${esc(`${name}.`)}</p></div></div>
${detail}<div id="seller-info-storefront-link" class="a-row">${link}</div>${feedbackTable(seller, t, domain)}</div>`;
  }
  const html = pageShell(
    {
      domain,
      texts,
      title: name,
      size: options.size,
      variant: hashString(`seller\u0000${seller.id}`),
      bodyClass: 'sp',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
      locationChosen: options.deliveryZip !== undefined,
    },
    content,
  );
  return { html, layout };
}

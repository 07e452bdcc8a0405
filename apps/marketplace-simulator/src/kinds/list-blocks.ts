import type { MarketplaceDomain } from '@crawl/marketplace';
import { renderHomePage } from '../render/pages.ts';
import type { PageSize } from '../render/page-shell.ts';
import { signinPage } from '../render/stand-in-pages.ts';
import type { KindPage } from './kind-route.ts';

/**
 * The stand-ins a list page's request can meet instead of the list (`sim_block=`): the front page
 * a storefront sends a suspected bot to (`home`), a sign-in page (`signin`), and a page of only the
 * browsing-history carousel, whose cards use the list's own card markup (`carousel`). Each is a
 * 200 a crawler must not take for the list.
 */
export function listStandIn(url: URL, domain: MarketplaceDomain, size: PageSize): KindPage | undefined {
  const block = url.searchParams.get('sim_block');
  if (block === 'home') return { html: renderHomePage({ domain, size }).html, layout: 'home-stand-in' };
  if (block === 'signin') return { html: signinPage(domain, `${url.pathname}${url.search}`), layout: 'signin' };
  if (block === 'carousel') return { html: carouselPage(), layout: 'carousel-stand-in' };
  return undefined;
}

function carouselPage(): string {
  const cards = [1, 2, 3]
    .map(
      (i) =>
        `<li class="a-carousel-card"><div id="B0SIM0000${i}" data-asin="B0SIM0000${i}" class="p13n-sc-uncoverable-faceout"><a class="a-link-normal" href="/dp/B0SIM0000${i}"><div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1">Recently viewed item ${i}</div></a><span class="_cDEzb_p13n-sc-price_3mJ9Z">$1${i}.99</span></div></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Amazon.com</title></head><body><div id="rhf" class="a-carousel-container"><h2>Your browsing history</h2><ol class="a-carousel">${cards}</ol></div></body></html>`;
}

import type { MarketplaceDomain } from '@crawl/marketplace';
import { deliveryLocation } from '../delivery-location.ts';
import { hashString } from '../rng.ts';
import { textsFor } from '../texts.ts';
import { esc } from './html.ts';
import { pageShell, type PageSize } from './page-shell.ts';

// Storefront pages that stand in for the page asked for: the generic error page, the sign-in page
// and a promotion page. None is a block page by its markers, and none carries a product or results.

function siteName(domain: MarketplaceDomain): string {
  return `Amazon.${domain.slice('amazon.'.length)}`;
}

/** The storefront's generic error page (served with 200 or 500): no product, no results, no block marker. */
export function errorPage(domain: MarketplaceDomain): string {
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>${esc(siteName(domain))}</title></head><body>
<div id="sim-error" class="a-container a-padding-double-large"><a href="/ref=cs_500_logo"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png" alt="${esc(siteName(domain))}"></a>
<h1 class="a-size-large">We're sorry.</h1>
<p>An error occurred when we tried to process your request. Nothing is wrong on your side; please try again in a few minutes.</p>
<p><a href="/ref=cs_500_link">Go to the home page</a></p></div></body></html>`;
}

/** The sign-in page, served in place of the page asked for (HTTP 200): an `/ap/signin` form asking for the email. */
export function signinPage(domain: MarketplaceDomain, returnPath: string): string {
  return `<!doctype html><html lang="en-us" class="a-no-js"><head><meta charset="utf-8"><title dir="ltr">${esc(siteName(domain))} Sign-In</title></head><body>
<div id="a-page"><div class="a-section a-spacing-none auth-page"><a class="a-link-nav-icon" href="/ref=ap_frn_logo"><i class="a-icon a-icon-logo" role="img" aria-label="${esc(siteName(domain))}"></i></a>
<div class="a-box"><div class="a-box-inner a-padding-extra-large"><h1 class="a-spacing-small">Sign in</h1>
<form name="signIn" method="post" novalidate action="/ap/signin" class="auth-validate-form auth-real-time-validation">
<input type="hidden" name="appActionToken" value="${esc(hashString(returnPath, 3).toString(36))}"><input type="hidden" name="openid.return_to" value="${esc(returnPath)}">
<label for="ap_email" class="a-form-label">Email or mobile phone number</label>
<input type="email" maxlength="128" id="ap_email" name="email" autocomplete="username" class="a-input-text a-span12">
<span class="a-button a-button-primary"><input id="continue" class="a-button-input" type="submit" value="Continue"></span>
</form></div></div></div></div></body></html>`;
}

export interface PromotionPageOptions {
  domain: MarketplaceDomain;
  size: PageSize;
  language?: string;
  deliveryZip?: string;
}

/**
 * A promotion landing page with the storefront's header and footer, served in place of the page
 * asked for (HTTP 200): a real page, just not a product, results or block page. Its bulk on a
 * `full` page is the usual filler.
 */
export function promotionPage(options: PromotionPageOptions): string {
  const { domain } = options;
  const tiles = ['Electronics', 'Home & Kitchen', 'Toys & Games', 'Fashion'].map(
    (name, i) =>
      `<div class="a-cardui promo-tile" id="promo-tile-${i + 1}"><a class="a-link-normal" href="/b?node=${esc(1000 + i)}&amp;ref=promo_tile_${i + 1}"><h2 class="a-color-base">${esc(name)}</h2><span class="a-size-small">Up to ${10 + i * 10} % off</span></a></div>`,
  );
  const footerLinks = ['Careers', 'Help', 'Returns & Replacements', 'Conditions of Use', 'Privacy Notice'].map(
    (name) => `<li class="nav_first"><a class="nav_a" href="/help?ref=footer_${esc(hashString(name).toString(36))}">${esc(name)}</a></li>`,
  );
  return pageShell(
    {
      domain,
      texts: textsFor(domain, options.language),
      title: `${siteName(domain)}: Deals of the Season`,
      size: options.size,
      variant: hashString(`promotion:${domain}`),
      bodyClass: 'promo-page',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
    },
    `<div id="promo-hero" class="a-section promo-hero"><h1 class="a-size-extra-large">Deals of the Season</h1><p>New deals every day, while stocks last.</p></div>
<div id="promo-grid" class="a-section promo-grid">${tiles.join('')}</div>
<div id="navFooter" class="navLeftFooter"><ul class="navFooterVerticalColumn">${footerLinks.join('')}</ul><div class="navFooterLine"><span>${esc(siteName(domain))}</span></div></div>`,
  );
}

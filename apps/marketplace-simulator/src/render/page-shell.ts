import type { MarketplaceDomain } from '@crawl/marketplace';
import { glowToken } from '../delivery-location.ts';
import type { Texts } from '../texts.ts';
import { filler, type Filler } from './filler.ts';
import { esc } from './html.ts';
import { shapedFiller, type PageShape } from './page-shapes.ts';

/** `full` pages weigh 1–2 MB like the real site; `small` ones only carry the content (fast tests). */
export type PageSize = 'full' | 'small';

export interface ShellOptions {
  domain: MarketplaceDomain;
  texts: Texts;
  title: string;
  size: PageSize;
  /** Picks the filler variant (and so the page weight) deterministically. */
  variant: number;
  bodyClass: string;
  /** Extra <head> markup (canonical link). */
  head?: string;
  /** What the bulk of a `full` page is made of; default `scripted`. */
  shape?: PageShape;
  /** The delivery location the header names (a postal code, else the storefront's country). */
  deliverTo: string;
  /**
   * The header's wording: `classic` greets on line 1 and names the place on line 2; `newer`
   * (2024 on) names a chosen postal code on line 1 ("Delivering to 10115") and prompts on line 2.
   */
  header?: 'classic' | 'newer' | undefined;
  /** True when the shopper chose the location (`deliverTo` is their postal code). */
  locationChosen?: boolean | undefined;
}

/** The header's two delivery lines. */
function deliveryLines(options: ShellOptions): [string, string] {
  const { texts } = options;
  if (options.header === 'newer' && options.locationChosen) return [`${texts.deliveringTo} ${options.deliverTo}`, texts.updateLocation];
  return [texts.deliverTo, options.deliverTo];
}

function fillerFor(options: ShellOptions): Filler | undefined {
  if (options.size !== 'full') return undefined;
  const shape = options.shape ?? 'scripted';
  if (shape !== 'scripted') return shapedFiller(shape, options.variant);
  return filler(1_050_000 + (options.variant % 4) * 220_000, options.variant);
}

/**
 * The location widget's trigger, as the storefronts render it: its modal settings carry the
 * anti-CSRF token the widget sends with the address change.
 */
function locationWidget(domain: MarketplaceDomain): string {
  const modal = {
    width: 375,
    closeButton: 'true',
    popoverLabel: 'Choose your location',
    ajaxHeaders: { 'anti-csrftoken-a2z': glowToken(domain) },
    name: 'glow-modal',
    url: '/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal',
    footer: null,
    header: 'Choose your location',
  };
  return `<span id="nav-global-location-data-modal-action" class="a-declarative nav-progressive-attribute" data-a-modal="${esc(JSON.stringify(modal))}"></span>`;
}

export function pageShell(options: ShellOptions, content: string): string {
  const fill = fillerFor(options);
  const market = options.domain.replace(/\./g, '-');
  const [line1, line2] = deliveryLines(options);
  return [
    `<!doctype html><html lang="${options.texts.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>`,
    // A DOM saved from a browser (after scripts ran and were dropped) keeps no script at all.
    options.size === 'full' && options.shape === 'serialized-dom'
      ? '<meta charset="utf-8"/>'
      : `<script>var aPageStart = (new Date()).getTime();</script><meta charset="utf-8"/>`,
    `<title>${esc(options.title)}</title>`,
    options.head ?? '',
    fill?.head ?? '',
    `</head><body class="a-m-${market} a-aui_72554-c ${options.bodyClass}"><div id="a-page">`,
    `<header id="navbar-main" class="nav-opt-sprite nav-locale-${market}"><div id="nav-belt"><div class="nav-left"><a href="/ref=nav_logo" id="nav-logo-sprites" class="nav-logo-link" aria-label="Amazon"><span class="nav-sprite nav-logo-base"></span></a></div>`,
    `<div id="nav-global-location-slot"><a id="nav-global-location-popover-link" class="nav-a nav-a-2 a-popover-trigger a-declarative" tabindex="0"><div class="nav-sprite" id="nav-packard-glow-loc-icon"></div><div id="glow-ingress-block"><span class="nav-line-1 nav-progressive-content" id="glow-ingress-line1">${esc(line1)}</span><span class="nav-line-2 nav-progressive-content" id="glow-ingress-line2">${esc(line2)}</span></div></a>${locationWidget(options.domain)}</div>`,
    `<form id="nav-search-bar-form" accept-charset="utf-8" action="/s/ref=nb_sb_noss" class="nav-searchbar" method="GET" name="site-search" role="search"><input type="text" id="twotabsearchtextbox" name="field-keywords" autocomplete="off" class="nav-input" aria-label="Search Amazon"></form></div></header>`,
    fill?.bodyStart ?? '',
    content,
    fill?.bodyEnd ?? '',
    `</div></body></html>`,
  ].join('\n');
}

import type { MarketplaceDomain } from '@crawl/marketplace';
import { hashString } from './rng.ts';

/** What the header says without a chosen postal code: the storefront's country. */
const COUNTRY: Record<MarketplaceDomain, string> = {
  'amazon.com': 'United States',
  'amazon.ca': 'Canada',
  'amazon.com.mx': 'México',
  'amazon.com.br': 'Brasil',
  'amazon.co.uk': 'United Kingdom',
  'amazon.de': 'Deutschland',
  'amazon.fr': 'France',
  'amazon.it': 'Italia',
  'amazon.es': 'España',
  'amazon.nl': 'Nederland',
  'amazon.se': 'Sverige',
  'amazon.pl': 'Polska',
  'amazon.com.be': 'Belgique',
  'amazon.com.tr': 'Türkiye',
  'amazon.ae': 'United Arab Emirates',
  'amazon.sa': 'Saudi Arabia',
  'amazon.in': 'India',
  'amazon.co.jp': '日本',
  'amazon.sg': 'Singapore',
  'amazon.com.au': 'Australia',
};

/** The delivery location a page is rendered for: the postal code asked for, else the country. */
export function deliveryLocation(domain: MarketplaceDomain, deliveryZip: string | undefined): string {
  return deliveryZip ?? COUNTRY[domain];
}

/** A postal code the simulator accepts as a delivery location (letters, digits, a space or dash). */
export function isPostalCode(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(value);
}

/** Where the location widget posts the chosen location, as on the storefronts. */
export const ADDRESS_CHANGE_PATH = '/portal-migration/hz/glow/address-change';
/** The header carrying the widget's anti-CSRF token. */
export const CSRF_HEADER = 'anti-csrftoken-a2z';
/**
 * The cookie that carries a session's chosen location. The storefront keeps it server side, tied
 * to the session cookie; the simulator keeps no state, so the cookie holds `<storefront>|<zip>`
 * itself (one simulator serves every storefront on one host, and a location counts only for the
 * storefront it was chosen on).
 */
export const LOCATION_COOKIE = 'sim-delivery-location';

/** The widget's token on every page of a storefront (stable, so the same request gets the same page). */
export function glowToken(domain: MarketplaceDomain): string {
  return `gt-${hashString(`glow|${domain}`, 0x2f6b).toString(36)}${hashString(domain, 0x51).toString(36)}`;
}

/** The `Set-Cookie` line an accepted address change answers with. */
export function locationCookie(domain: MarketplaceDomain, zip: string): string {
  return `${LOCATION_COOKIE}=${encodeURIComponent(`${domain}|${zip}`)}; Path=/; HttpOnly; SameSite=Lax`;
}

/** The postal code the session chose on this storefront, read from the request's `Cookie` header. */
export function chosenZip(cookieHeader: string | undefined, domain: MarketplaceDomain): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== LOCATION_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
    const bar = value.indexOf('|');
    const zip = value.slice(bar + 1);
    return bar > 0 && value.slice(0, bar) === domain && isPostalCode(zip) ? zip : undefined;
  }
  return undefined;
}

/** The widget's answer as the storefront words it: flags as 0 or 1, an error's text, the address taken. */
export interface AddressChangeBody {
  successful: 0 | 1;
  isValidAddress?: 0 | 1;
  isTransitOutOfAis?: 0;
  error?: string;
  address?: { zipCode: string; locationType: string };
}

export type AddressChangeAnswer = { status: number; body: AddressChangeBody; zip?: string };

/**
 * The widget's POST: JSON `{ locationType: 'LOCATION_INPUT', zipCode, … }` with the page's token in
 * `anti-csrftoken-a2z`. A missing or wrong token is refused (400) and changes nothing; a postal code
 * the storefront does not know answers `isValidAddress: 0`, as the storefront does.
 */
export function addressChange(domain: MarketplaceDomain, token: string | undefined, body: string): AddressChangeAnswer {
  if (token !== glowToken(domain)) return { status: 400, body: { successful: 0, error: 'missing or invalid anti-csrf token' } };
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    return { status: 400, body: { successful: 0, error: 'body is not JSON' } };
  }
  const { locationType, zipCode } = (input ?? {}) as { locationType?: unknown; zipCode?: unknown };
  if (locationType !== 'LOCATION_INPUT' || typeof zipCode !== 'string' || !isPostalCode(zipCode.trim()))
    return { status: 200, body: { isValidAddress: 0, isTransitOutOfAis: 0, successful: 0 } };
  const zip = zipCode.trim();
  return { status: 200, body: { isValidAddress: 1, isTransitOutOfAis: 0, successful: 1, address: { zipCode: zip, locationType } }, zip };
}

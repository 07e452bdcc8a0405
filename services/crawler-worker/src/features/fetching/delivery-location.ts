import type { SessionHolder, UpstreamClient } from './upstream-client.ts';

/** Where the storefront's location widget posts the chosen location. */
export const ADDRESS_CHANGE_PATH = '/portal-migration/hz/glow/address-change';
const CSRF_HEADER = 'anti-csrftoken-a2z';

export interface DeliveryLocationRequest {
  /** The storefront's origin (`https://www.amazon.de`, or the simulator's). */
  origin: string;
  /** Query parameters every URL of the storefront carries (`domain=` for the simulator). */
  query: Record<string, string>;
  zip: string;
  lang?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The widget trigger's modal settings, as far as they are read: the headers its requests carry. */
interface WidgetSettings {
  ajaxHeaders?: { [header: string]: unknown };
}

/** The storefront's answer to an address change, as far as it is read. */
interface AddressChangeAnswer {
  isValidAddress?: unknown;
  successful?: unknown;
}

export type DeliveryLocationResult = { ok: true; requests: number } | { ok: false; message: string; requests: number };

/**
 * The key a session is reserved under: a location counts for one storefront only, and a simulator
 * base serves every storefront on one origin.
 */
export function deliveryLocationKey(origin: string, domain: string | undefined, zip: string): string {
  return `${origin}|${domain ?? ''}|${zip}`;
}

/**
 * The location widget's anti-CSRF token from a page: in the widget trigger's modal settings
 * (`data-a-modal` → `ajaxHeaders['anti-csrftoken-a2z']`), or in a `glow-validation-token` input on
 * layouts that carry one.
 */
export function locationWidgetToken(html: string): string | undefined {
  const modal = /id=["']nav-global-location-data-modal-action["'][^>]*?data-a-modal=(?:"([^"]*)"|'([^']*)')/.exec(html);
  const settings = modal?.[1] ?? modal?.[2];
  if (settings !== undefined) {
    const json = settings
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    try {
      const token = (JSON.parse(json) as WidgetSettings).ajaxHeaders?.[CSRF_HEADER];
      if (typeof token === 'string' && token) return token;
    } catch {
      // Not JSON after all: fall through to the other carrier.
    }
  }
  const input = /<input[^>]*name=["']glow-validation-token["'][^>]*>/.exec(html)?.[0];
  const value = input && /value=["']([^"']+)["']/.exec(input)?.[1];
  return value || undefined;
}

function withQuery(url: string, query: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(query)) parsed.searchParams.set(key, value);
  return parsed.toString();
}

/**
 * Sets the held session's delivery location as a shopper's browser does: open the storefront's
 * front page, read the location widget's token, POST the postal code to the widget's endpoint;
 * from then on the session's cookies carry the location to every page. Both requests go through
 * the upstream client (rate budget of the session's egress identity, allowlist, retries, block
 * detection). On success the session is marked set; on failure nothing is claimed, and the pages
 * show whatever location the storefront gives them.
 */
export async function setDeliveryLocation(
  upstream: Pick<UpstreamClient, 'getPage'>,
  holder: SessionHolder,
  request: DeliveryLocationRequest,
): Promise<DeliveryLocationResult> {
  const common = { session: holder, lang: request.lang, signal: request.signal };
  const homeUrl = withQuery(`${request.origin}/`, request.query);
  const home = await upstream.getPage({ ...common, url: homeUrl });
  let requests = home.attempts;
  if (!home.ok) return { ok: false, message: `front page: ${home.message}`, requests };
  const session = holder.current;
  const token = locationWidgetToken(home.page.html);
  if (token === undefined) return { ok: false, message: 'no location widget token on the front page', requests };

  const body = { locationType: 'LOCATION_INPUT', zipCode: request.zip, deviceType: 'web', storeContext: 'generic', pageType: 'Gateway', actionSource: 'glow' };
  const change = await upstream.getPage({
    ...common,
    url: withQuery(`${request.origin}${ADDRESS_CHANGE_PATH}?actionSource=glow`, request.query),
    referer: home.page.url,
    post: {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: token, 'x-requested-with': 'XMLHttpRequest' },
    },
  });
  requests += change.attempts;
  if (!change.ok) return { ok: false, message: `address change: ${change.message}`, requests };
  // A block between the two requests moved the target to another session: the token was not its.
  if (holder.current !== session) return { ok: false, message: 'the session changed during the address change', requests };
  let answer: AddressChangeAnswer;
  try {
    answer = JSON.parse(change.page.html) as AddressChangeAnswer;
  } catch {
    return { ok: false, message: `address change answered HTTP ${change.page.status} with no JSON`, requests };
  }
  if (answer.isValidAddress !== 1 && answer.successful !== 1) return { ok: false, message: `postal code ${request.zip} was not accepted`, requests };
  session.locationSet = true;
  return { ok: true, requests };
}

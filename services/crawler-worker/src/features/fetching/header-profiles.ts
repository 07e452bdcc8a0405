/**
 * Request headers as real browsers send them. A session keeps one profile for its whole life:
 * a user agent that changes between two requests of one cookie session is itself a bot signal.
 * Profiles come from browser-profiles.ts; this file only assembles one navigation's headers.
 */
export interface HeaderProfile {
  /** The browser's own headers: user agent, client hints (Chromium only), accept, fetch metadata … */
  readonly headers: Readonly<Record<string, string>>;
  /** Header names in the order this browser sends them, referer and cookie included. */
  readonly order: readonly string[];
}

/** `de-DE` → `de-DE,de;q=0.9,en;q=0.8`; English tags skip the English fallback. */
export function acceptLanguage(lang: string | undefined): string {
  const tag = lang && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang) ? lang : 'en-US';
  const primary = tag.split('-')[0]?.toLowerCase() ?? 'en';
  const parts = [tag];
  if (tag.toLowerCase() !== primary) parts.push(`${primary};q=0.9`);
  if (primary !== 'en') parts.push('en;q=0.8');
  return parts.join(',');
}

export interface NavigationHeadersInput {
  profile: HeaderProfile;
  lang: string | undefined;
  /** What the fetcher can decode, whatever the browser would have offered. */
  acceptEncoding: string;
  /** The page the "user" came from (page 2 of a search comes from page 1). */
  referer?: string | undefined;
  cookie?: string | undefined;
}

/** The headers of a top-level navigation in the profile's browser, in its order. */
export function navigationHeaders(input: NavigationHeadersInput): Record<string, string> {
  const headers: Record<string, string> = { ...input.profile.headers, 'accept-encoding': input.acceptEncoding, 'accept-language': acceptLanguage(input.lang) };
  // Only browsers that send fetch metadata say whether the navigation came from the same site.
  if ('sec-fetch-site' in headers) headers['sec-fetch-site'] = input.referer ? 'same-origin' : 'none';
  if (input.referer) headers.referer = input.referer;
  if (input.cookie) headers.cookie = input.cookie;
  return inOrder(headers, input.profile.order);
}

function inOrder(headers: Record<string, string>, order: readonly string[]): Record<string, string> {
  const ordered: Record<string, string> = {};
  for (const name of order) if (name in headers) ordered[name] = headers[name] as string;
  for (const [name, value] of Object.entries(headers)) if (!(name in ordered)) ordered[name] = value;
  return ordered;
}

/**
 * The headers of a page script's request (the location widget's POST) in the profile's browser:
 * the navigation's identity and cookies, with the fetch metadata of a same-origin `fetch()` and the
 * request's own headers (content type, anti-CSRF token).
 */
export function scriptRequestHeaders(input: NavigationHeadersInput & { origin: string; extra: Record<string, string> }): Record<string, string> {
  const headers = navigationHeaders(input);
  delete headers['upgrade-insecure-requests'];
  delete headers['sec-fetch-user'];
  if ('sec-fetch-site' in headers) {
    headers['sec-fetch-site'] = 'same-origin';
    headers['sec-fetch-mode'] = 'cors';
    headers['sec-fetch-dest'] = 'empty';
  }
  headers.accept = 'text/html,*/*';
  headers.origin = input.origin;
  return { ...headers, ...input.extra };
}

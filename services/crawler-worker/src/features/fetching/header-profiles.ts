/**
 * Request headers as real browsers send them. A session keeps one profile for its whole life:
 * a user agent that changes between two requests of one cookie session is itself a bot signal.
 */
export interface HeaderProfile {
  readonly name: string;
  readonly userAgent: string;
  /** Client hints; only Chromium browsers send them. */
  readonly clientHints?: Readonly<Record<string, string>>;
  readonly accept: string;
}

const CHROME_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export const HEADER_PROFILES: readonly HeaderProfile[] = Object.freeze([
  {
    name: 'chrome-windows',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    clientHints: { 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
    accept: CHROME_ACCEPT,
  },
  {
    name: 'chrome-macos',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    clientHints: { 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"macOS"' },
    accept: CHROME_ACCEPT,
  },
  {
    name: 'edge-windows',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    clientHints: { 'sec-ch-ua': '"Microsoft Edge";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
    accept: CHROME_ACCEPT,
  },
  {
    name: 'firefox-windows',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    accept: FIREFOX_ACCEPT,
  },
  {
    name: 'safari-macos',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  },
]);

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
  acceptEncoding: string;
  /** The page the "user" came from (page 2 of a search comes from page 1). */
  referer?: string | undefined;
  cookie?: string | undefined;
}

/** The headers of a top-level navigation in the profile's browser. */
export function navigationHeaders(input: NavigationHeadersInput): Record<string, string> {
  const { profile } = input;
  const headers: Record<string, string> = {
    ...(profile.clientHints ?? {}),
    'upgrade-insecure-requests': '1',
    'user-agent': profile.userAgent,
    accept: profile.accept,
    'sec-fetch-site': input.referer ? 'same-origin' : 'none',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-user': '?1',
    'sec-fetch-dest': 'document',
    'accept-encoding': input.acceptEncoding,
    'accept-language': acceptLanguage(input.lang),
  };
  if (input.referer) headers.referer = input.referer;
  if (input.cookie) headers.cookie = input.cookie;
  return headers;
}

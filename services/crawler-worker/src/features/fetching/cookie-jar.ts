import { Cookie, CookieJar as ToughCookieJar } from 'tough-cookie';

/**
 * The cookies of one crawl session: what the marketplace sets (session-id, i18n-prefs, …) goes back
 * on the next request, as a browser would do. RFC 6265 matching, expiry and the public-suffix check
 * (no cookie for `co.uk` shared by every shop under it) come from tough-cookie; this class keeps
 * the synchronous two-call shape the fetcher uses.
 */
export class CookieJar {
  readonly #jar = new ToughCookieJar(undefined, { rejectPublicSuffixes: true });

  /** Stores the `Set-Cookie` headers of a response to `url`; cookies a browser would refuse are dropped. */
  store(url: URL, setCookie: string | readonly string[] | undefined): void {
    if (!setCookie) return;
    for (const line of typeof setCookie === 'string' ? [setCookie] : setCookie) {
      const cookie = Cookie.parse(line);
      if (!cookie) continue;
      fixMaxAge(cookie, Date.now());
      // A refused cookie (another site's domain, a public suffix) must not fail the page.
      this.#jar.setCookieSync(cookie, url, { ignoreError: true });
    }
  }

  /** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined {
    return this.#jar.getCookieStringSync(url) || undefined;
  }
}

/**
 * tough-cookie counts Max-Age from the cookie's last access, so a cookie sent on every request
 * would never expire; RFC 6265 §5.2.2 fixes the expiry when the cookie is received.
 */
function fixMaxAge(cookie: Cookie, now: number): void {
  if (typeof cookie.maxAge !== 'number') return;
  cookie.expires = new Date(cookie.maxAge <= 0 ? 0 : now + cookie.maxAge * 1000);
  cookie.maxAge = null;
}

interface StoredCookie {
  name: string;
  value: string;
  /** Lowercase host the cookie applies to (without a leading dot). */
  domain: string;
  /** False for a host-only cookie (no Domain attribute): the exact host only. */
  includeSubdomains: boolean;
  path: string;
  secure: boolean;
  /** Epoch ms; undefined for a session cookie. */
  expiresAt: number | undefined;
}

/** The default-path of RFC 6265 §5.1.4: the directory of the request path. */
function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/')) return '/';
  const last = pathname.lastIndexOf('/');
  return last <= 0 ? '/' : pathname.slice(0, last);
}

function domainMatches(host: string, cookie: StoredCookie): boolean {
  if (host === cookie.domain) return true;
  return cookie.includeSubdomains && host.endsWith(`.${cookie.domain}`);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/**
 * A small RFC 6265 cookie store for one crawl session: what the marketplace sets (session-id,
 * i18n-prefs, …) goes back on the next request, as a browser would do.
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Stores the `Set-Cookie` headers of a response to `url`. */
  store(url: URL, setCookie: string | readonly string[] | undefined): void {
    if (!setCookie) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) this.#storeOne(url, line);
  }

  /** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const now = this.#now();
    const matching: StoredCookie[] = [];
    for (const [key, cookie] of this.#cookies) {
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= now) {
        this.#cookies.delete(key);
        continue;
      }
      if (!domainMatches(host, cookie) || !pathMatches(url.pathname || '/', cookie.path)) continue;
      if (cookie.secure && url.protocol !== 'https:') continue;
      matching.push(cookie);
    }
    if (matching.length === 0) return undefined;
    // Longer paths first, as browsers do.
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.map((c) => `${c.name}=${c.value}`).join('; ');
  }

  get size(): number {
    return this.#cookies.size;
  }

  clear(): void {
    this.#cookies.clear();
  }

  #storeOne(url: URL, line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (!name) return;
    const host = url.hostname.toLowerCase();
    const cookie: StoredCookie = { name, value, domain: host, includeSubdomains: false, path: defaultPath(url.pathname), secure: false, expiresAt: undefined };
    let maxAgeSeen = false;
    for (const attribute of attributes) {
      const index = attribute.indexOf('=');
      const key = (index < 0 ? attribute : attribute.slice(0, index)).trim().toLowerCase();
      const attrValue = index < 0 ? '' : attribute.slice(index + 1).trim();
      if (key === 'domain' && attrValue) {
        const domain = attrValue.replace(/^\./, '').toLowerCase();
        // A response may not set cookies for another site.
        if (host !== domain && !host.endsWith(`.${domain}`)) return;
        cookie.domain = domain;
        cookie.includeSubdomains = true;
      } else if (key === 'path' && attrValue.startsWith('/')) {
        cookie.path = attrValue;
      } else if (key === 'secure') {
        cookie.secure = true;
      } else if (key === 'max-age' && /^-?\d+$/.test(attrValue)) {
        maxAgeSeen = true;
        cookie.expiresAt = this.#now() + Number(attrValue) * 1000;
      } else if (key === 'expires' && !maxAgeSeen) {
        const at = Date.parse(attrValue);
        if (!Number.isNaN(at)) cookie.expiresAt = at;
      }
    }
    const key = `${cookie.domain};${cookie.path};${cookie.name}`;
    if (cookie.expiresAt !== undefined && cookie.expiresAt <= this.#now()) this.#cookies.delete(key);
    else this.#cookies.set(key, cookie);
  }
}

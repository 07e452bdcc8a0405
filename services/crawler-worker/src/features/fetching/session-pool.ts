import { generatedProfile } from './browser-profiles.ts';
import { CookieJar } from './cookie-jar.ts';
import type { HeaderProfile } from './header-profiles.ts';
import type { EgressIdentity, ProxyPool } from '../egress/index.ts';

/** One "browser": a header profile, its cookies and the proxy it goes out through. */
export interface CrawlSession {
  readonly id: number;
  readonly profile: HeaderProfile;
  readonly jar: CookieJar;
  /** Undefined: direct connection. */
  readonly proxy: string | undefined;
  uses: number;
  retired: boolean;
  /**
   * The delivery location this session serves (an opaque key: storefront and postal code), fixed
   * when it is created; undefined: the storefront's own. Only targets asking for the same location
   * get the session, so one target's location never shows on another's pages.
   */
  readonly location: string | undefined;
  /** True once the storefront accepted `location` for this session (its cookies carry it now). */
  locationSet: boolean;
}

export interface SessionPoolOptions {
  proxies: ProxyPool;
  /** Requests per session before it is replaced. */
  maxUses: number;
  /** Sessions kept alive at once. */
  size: number;
  /** A new browser identity per session (default: generated). */
  profiles?: () => HeaderProfile;
}

/**
 * Hands out sessions round robin. A session is retired after `maxUses` requests or at its first
 * blocked response (its cookies are burnt and its proxy gets a strike); a fresh one takes its place.
 * Sessions of a cooled-down proxy leave the pool too, so new work goes out through the others.
 */
export class SessionPool {
  readonly #options: SessionPoolOptions;
  readonly #sessions: CrawlSession[] = [];
  readonly #profiles: () => HeaderProfile;
  #seq = 0;
  #cursor = 0;

  constructor(options: SessionPoolOptions) {
    this.#options = options;
    this.#profiles = options.profiles ?? generatedProfile;
  }

  /**
   * A live session for `location` (undefined: the storefront's own); the caller keeps it for the
   * pages of one target. Sessions of one location take turns. Plain sessions fill the pool first;
   * a session with a location is reused while there is one (setting a location costs requests).
   * When the pool is full and none serves this location, the oldest session of another one makes
   * room (callers holding it may finish).
   */
  take(location?: string): CrawlSession {
    this.#prune();
    const size = Math.max(1, this.#options.size);
    const matching = this.#sessions.filter((s) => s.location === location);
    if ((location === undefined && this.#sessions.length < size) || matching.length === 0) {
      if (this.#sessions.length >= size) {
        const oldest = this.#sessions.shift() as CrawlSession;
        oldest.retired = true;
      }
      const session = this.#create(location);
      this.#sessions.push(session);
      return session;
    }
    const session = matching[this.#cursor % matching.length] as CrawlSession;
    this.#cursor += 1;
    return session;
  }

  /** Counts a request; a worn-out session leaves the pool (callers holding it may finish). */
  used(session: CrawlSession): void {
    session.uses += 1;
    if (session.uses >= this.#options.maxUses) session.retired = true;
  }

  /** Takes the session out of use without blaming its identity (its pages were usable, not the best). */
  retire(session: CrawlSession): void {
    session.retired = true;
  }

  blocked(session: CrawlSession): void {
    session.retired = true;
    this.#options.proxies.reportBlocked(session.proxy);
  }

  succeeded(session: CrawlSession): void {
    this.#options.proxies.reportSuccess(session.proxy);
  }

  /** The egress identity whose share of the upstream rate the session's requests take. */
  identityOf(session: CrawlSession): EgressIdentity {
    return this.#options.proxies.identityOf(session.proxy);
  }

  /** True when the session's proxy is cooled down and another takes work: swap the session. */
  shouldMove(session: CrawlSession): boolean {
    return this.#options.proxies.shouldMove(session.proxy);
  }

  #prune(): void {
    for (let i = this.#sessions.length - 1; i >= 0; i -= 1) {
      const session = this.#sessions[i] as CrawlSession;
      if (!session.retired && this.shouldMove(session)) session.retired = true;
      if (session.retired) this.#sessions.splice(i, 1);
    }
  }

  #create(location: string | undefined): CrawlSession {
    this.#seq += 1;
    return {
      id: this.#seq,
      profile: this.#profiles(),
      jar: new CookieJar(),
      proxy: this.#options.proxies.next(),
      uses: 0,
      retired: false,
      location,
      locationSet: false,
    };
  }
}

import { Identity, type ServiceName } from '@crawl/contracts';
import { Value } from '@sinclair/typebox/value';
import { createSigner, createVerifier } from 'fast-jwt';
import { oncePerClaims } from './once-per-claims.ts';

const AUDIENCE = 'crawl-internal';
const ISSUER = 'crawl-data-service';
const LIFETIME_SECONDS = 60;
/** Signed identities kept for reuse; past this many, the oldest go first. */
const CACHED_IDENTITIES = 10_000;

export const IDENTITY_HEADER = 'x-crawl-identity';
export const SERVICE_TOKEN_HEADER = 'x-internal-token';

/**
 * Short-lived HS256 tokens signed with the internal secret. They carry a caller's identity from
 * the gateway to a service, or prove that a request comes from another service. A public client
 * never holds the secret, so it cannot mint either.
 */
/** What an internal token is signed with: a caller's identity, or the name of the calling service. */
type InternalClaims = { kind: 'identity'; identity: Identity } | { kind: 'service'; sub: ServiceName };

/** A verified token's claims, still to be read: a signature proves who signed, not the shape. */
interface UncheckedClaims {
  kind?: unknown;
  identity?: unknown;
  sub?: unknown;
}

export class InternalTokens {
  readonly #sign: (payload: InternalClaims) => string;
  readonly #verify: (token: string) => UncheckedClaims;
  readonly #cachedServiceTokens = new Map<string, { token: string; until: number }>();
  readonly #cachedIdentityTokens = new Map<string, { token: string; until: number }>();
  /** The same identity object again (the gateway's, per bearer token): its token without a key. */
  readonly #identityTokensByObject = new WeakMap<Identity, { token: string; until: number }>();
  /** The identity a token's claims carry, checked once per token (the verifier caches the claims). */
  readonly #identityOf = oncePerClaims((claims: UncheckedClaims): Identity | null =>
    claims.kind === 'identity' && Value.Check(Identity, claims.identity) ? Object.freeze(claims.identity as Identity) : null,
  );

  constructor(secret: string) {
    this.#sign = createSigner({ key: secret, algorithm: 'HS256', aud: AUDIENCE, iss: ISSUER, expiresIn: LIFETIME_SECONDS * 1000 });
    this.#verify = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      allowedAud: AUDIENCE,
      allowedIss: ISSUER,
      requiredClaims: ['exp', 'kind'],
      // fast-jwt's own cache key (a hash of the whole token): see bearer-identity.ts in the gateway.
      cache: 1000,
    });
  }

  /**
   * Reused for half its lifetime, like a service token: the gateway forwards many requests of one
   * caller, and the same token each time also lets the receiver's verifier answer from its cache.
   */
  signIdentity(identity: Identity): string {
    const now = Date.now();
    const known = this.#identityTokensByObject.get(identity);
    if (known && known.until > now) return known.token;
    const key = `${identity.userId}\u0000${identity.organizationId}\u0000${identity.email}\u0000${identity.role}\u0000${identity.audience}`;
    let cached = this.#cachedIdentityTokens.get(key);
    if (!cached || cached.until <= now) {
      cached = { token: this.#sign({ kind: 'identity', identity }), until: now + (LIFETIME_SECONDS * 1000) / 2 };
      this.#cachedIdentityTokens.delete(key);
      if (this.#cachedIdentityTokens.size >= CACHED_IDENTITIES) this.#cachedIdentityTokens.delete(this.#cachedIdentityTokens.keys().next().value as string);
      this.#cachedIdentityTokens.set(key, cached);
    }
    if (Object.isFrozen(identity)) this.#identityTokensByObject.set(identity, cached);
    return cached.token;
  }

  /** @returns the identity, or null when the token is missing, forged, expired or malformed. */
  verifyIdentity(token: string | undefined): Identity | null {
    if (!token) return null;
    let claims: UncheckedClaims;
    try {
      claims = this.#verify(token);
    } catch {
      return null;
    }
    return this.#identityOf(claims);
  }

  /** Reused for half its lifetime: signing on every internal call is wasted work. */
  signService(from: ServiceName): string {
    const now = Date.now();
    const cached = this.#cachedServiceTokens.get(from);
    if (cached && cached.until > now) return cached.token;
    const token = this.#sign({ kind: 'service', sub: from });
    this.#cachedServiceTokens.set(from, { token, until: now + (LIFETIME_SECONDS * 1000) / 2 });
    return token;
  }

  verifyService(token: string | undefined): string | null {
    if (!token) return null;
    try {
      const claims = this.#verify(token);
      return claims.kind === 'service' && typeof claims.sub === 'string' ? claims.sub : null;
    } catch {
      return null;
    }
  }
}

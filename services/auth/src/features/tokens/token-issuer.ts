import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, HANDOFF_TOKEN_TTL_SECONDS, JWT_AUDIENCE, TOKEN_ISSUER, type Role, type TokenAudience } from '@crawl/contracts';
import { createSigner, createVerifier } from 'fast-jwt';

export interface TokenSubject {
  userId: string;
  organizationId: string;
  email: string;
  role: Role;
}

export interface HandoffClaims extends TokenSubject {
  jti: string;
}

/** A verified handoff token's claims, still to be read: a signature proves who signed, not the shape. */
interface UncheckedSubjectClaims {
  sub?: unknown;
  org?: unknown;
  email?: unknown;
  role?: unknown;
  jti?: unknown;
}

/**
 * Signs access, dashboard and handoff tokens: HS256 only, `exp` always set, issuer and audience
 * fixed per kind, so no token kind is accepted in place of another.
 */
export class TokenIssuer {
  readonly #secret: string;
  readonly #dashboardTtlSeconds: number;
  readonly #verifyHandoff: (token: string) => UncheckedSubjectClaims;

  constructor(secret: string, dashboardTtlSeconds: number) {
    this.#secret = secret;
    this.#dashboardTtlSeconds = dashboardTtlSeconds;
    this.#verifyHandoff = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      allowedAud: JWT_AUDIENCE.handoff,
      allowedIss: TOKEN_ISSUER,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
  }

  #sign(subject: TokenSubject, audience: string, ttlSeconds: number, extra: { jti?: string } = {}): string {
    const sign = createSigner({ key: this.#secret, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: audience, expiresIn: ttlSeconds * 1000, sub: subject.userId });
    return sign({ org: subject.organizationId, email: subject.email, role: subject.role, ...extra });
  }

  access(subject: TokenSubject, audience: TokenAudience = 'api'): { token: string; expiresIn: number } {
    const ttl = audience === 'dashboard' ? this.#dashboardTtlSeconds : ACCESS_TOKEN_TTL_SECONDS;
    return { token: this.#sign(subject, JWT_AUDIENCE[audience], ttl), expiresIn: ttl };
  }

  handoff(subject: TokenSubject): { token: string; expiresIn: number } {
    return { token: this.#sign(subject, JWT_AUDIENCE.handoff, HANDOFF_TOKEN_TTL_SECONDS, { jti: randomUUID() }), expiresIn: HANDOFF_TOKEN_TTL_SECONDS };
  }

  /** @returns the handoff's claims, or null for anything that is not a valid, unexpired handoff token. */
  readHandoff(token: string): HandoffClaims | null {
    try {
      const claims = this.#verifyHandoff(token);
      if (typeof claims.sub !== 'string' || typeof claims.org !== 'string' || typeof claims.email !== 'string' || typeof claims.jti !== 'string') return null;
      return { userId: claims.sub, organizationId: claims.org, email: claims.email, role: claims.role === 'admin' ? 'admin' : 'user', jti: claims.jti };
    } catch {
      return null;
    }
  }
}

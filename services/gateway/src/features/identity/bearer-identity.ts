import { JWT_AUDIENCE, TOKEN_ISSUER, type Identity } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { IdentityResolver } from '@crawl/http-kit';
import { oncePerClaims } from '@crawl/service-client';
import { createVerifier, TokenError } from 'fast-jwt';

interface AccessClaims {
  sub?: unknown;
  org?: unknown;
  email?: unknown;
  role?: unknown;
  aud?: unknown;
}

/** The scheme is case-insensitive (RFC 9110, 11.1); the credentials are whatever follows it. */
const BEARER = /^bearer[ \t]+(\S+)$/i;
/** A JWT in compact form: three base64url parts. Anything else cannot be one of our tokens. */
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const INVALID_TOKEN = 'Invalid access token';

/**
 * Reads `Authorization: Bearer <jwt>` and verifies it with the pinned settings: HS256 only (so
 * `alg: none` and a switched algorithm fail), `exp` required, this issuer, and only the access and
 * dashboard audiences (a handoff token is not an access token). The same library signs the tokens
 * in auth, so signer and verifier cannot disagree on claims.
 */
export function bearerIdentity(secret: string): IdentityResolver {
  const verify = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    allowedIss: TOKEN_ISSUER,
    allowedAud: [JWT_AUDIENCE.api, JWT_AUDIENCE.dashboard],
    requiredClaims: ['exp', 'sub', 'aud', 'iss'],
    // A client sends its token on every request: a token verified once is known until it expires
    // (fast-jwt checks the time claims again on every hit), not HMAC-checked again. fast-jwt's own
    // cache key (a hash of the whole token) is kept: a custom key builder makes it warn at start
    // that collisions could let one token pass for another, whatever the builder does.
    cache: 1000,
  });
  const identityOfToken = oncePerClaims(identityOf);
  return (request) => {
    const header = request.headers.authorization;
    if (!header) return null;
    const match = BEARER.exec(header.trim());
    if (!match) throw errors.unauthorized('Unsupported Authorization header; expected "Bearer <token>"');
    const token = match[1] as string;
    // A bearer token that is not a JWT at all is as invalid as a forged one, and said the same way.
    if (!COMPACT_JWT.test(token)) throw errors.unauthorized(INVALID_TOKEN);
    let claims: AccessClaims;
    try {
      claims = verify(token) as AccessClaims;
    } catch (error) {
      const expired = error instanceof TokenError && error.code === TokenError.codes.expired;
      throw errors.unauthorized(expired ? 'Access token expired; log in again' : INVALID_TOKEN);
    }
    return identityOfToken(claims);
  };
}

function identityOf(claims: AccessClaims): Identity {
  const audience = claims.aud === JWT_AUDIENCE.dashboard ? 'dashboard' : claims.aud === JWT_AUDIENCE.api ? 'api' : null;
  if (!audience || typeof claims.sub !== 'string' || typeof claims.org !== 'string' || typeof claims.email !== 'string') {
    throw errors.unauthorized(INVALID_TOKEN);
  }
  // Shared by every request with this token: frozen, so none can change it for the others.
  return Object.freeze({
    userId: claims.sub,
    organizationId: claims.org,
    email: claims.email,
    role: claims.role === 'admin' ? 'admin' : 'user',
    audience,
  });
}

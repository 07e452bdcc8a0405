import { JWT_AUDIENCE, type Identity } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { FastifyRequest } from 'fastify';

interface AccessClaims {
  sub?: unknown;
  org?: unknown;
  email?: unknown;
  role?: unknown;
  aud?: unknown;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * Reads `Authorization: Bearer <jwt>` and verifies it with the pinned HS256 settings. Only access
 * and dashboard tokens pass; a handoff token is not an access token.
 */
export async function bearerIdentity(request: FastifyRequest): Promise<Identity | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = BEARER.exec(header.trim());
  if (!match) throw errors.unauthorized('Malformed Authorization header; expected "Bearer <token>"');
  let claims: AccessClaims;
  try {
    claims = await request.jwtVerify<AccessClaims>();
  } catch (error) {
    const expired = (error as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED';
    throw errors.unauthorized(expired ? 'Access token expired; log in again' : 'Invalid access token');
  }
  const audience = claims.aud === JWT_AUDIENCE.dashboard ? 'dashboard' : claims.aud === JWT_AUDIENCE.api ? 'api' : null;
  if (!audience || typeof claims.sub !== 'string' || typeof claims.org !== 'string' || typeof claims.email !== 'string') {
    throw errors.unauthorized('Invalid access token');
  }
  return { userId: claims.sub, organizationId: claims.org, email: claims.email, role: claims.role === 'admin' ? 'admin' : 'user', audience };
}

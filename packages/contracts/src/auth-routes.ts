import { Type } from '@sinclair/typebox';
import { HandoffResponse, LoginBody, MeResponse, RegisterBody, SessionResponse, VerifyHandoffBody } from './auth.ts';
import { ErrorEnvelope } from './errors.ts';
import { HealthResponse } from './health.ts';
import { defineRoutes, type RateLimitPolicy } from './route-spec.ts';

/**
 * Credential routes are throttled per client address (across every email) and per address and
 * email together, with backoff. Never per email alone: anyone could then lock a user out by
 * failing logins with the user's email. The gateway may override the numbers (RATE_LIMIT_OVERRIDES).
 */
export const AUTH_IP_LIMIT: RateLimitPolicy = { name: 'auth-ip', max: 30, timeWindowMs: 60_000, key: 'ip' };
export const AUTH_IP_EMAIL_LIMIT: RateLimitPolicy = { name: 'auth-ip-email', max: 10, timeWindowMs: 60_000, key: 'ip+email', backoff: true };
/** New accounts per client address: each one carries signup credits. */
export const REGISTER_IP_LIMIT: RateLimitPolicy = { name: 'register-ip', max: 5, timeWindowMs: 60 * 60_000, key: 'ip' };
const credentialLimits = [AUTH_IP_LIMIT, AUTH_IP_EMAIL_LIMIT] as const;

export const HealthRoutes = defineRoutes({
  health: {
    method: 'GET',
    url: '/health',
    owner: 'gateway',
    access: 'public',
    schema: {
      summary: 'Liveness and dependency health',
      description: 'Not in the data envelope: 200 when every indicator is up, 503 with the failing ones otherwise. No token needed.',
      tags: ['health'],
      // 431: like any request, one whose headers are over 16 KiB is refused before it is routed.
      response: { 200: HealthResponse, 431: ErrorEnvelope, 503: HealthResponse },
    },
  },
});

export const AuthRoutes = defineRoutes({
  register: {
    method: 'POST',
    url: '/auth/register',
    owner: 'auth',
    access: 'public',
    noStore: true,
    rateLimits: [AUTH_IP_LIMIT, REGISTER_IP_LIMIT],
    schema: {
      summary: 'Create a user and its organization',
      tags: ['auth'],
      body: RegisterBody,
      response: { 201: SessionResponse, 400: ErrorEnvelope, 409: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  login: {
    method: 'POST',
    url: '/auth/login',
    owner: 'auth',
    access: 'public',
    noStore: true,
    rateLimits: credentialLimits,
    schema: {
      summary: 'Exchange email and password for an access token',
      tags: ['auth'],
      body: LoginBody,
      response: { 200: SessionResponse, 400: ErrorEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  loginHandoff: {
    method: 'POST',
    url: '/auth/login-handoff',
    owner: 'auth',
    access: 'public',
    noStore: true,
    rateLimits: credentialLimits,
    schema: {
      summary: 'Exchange email and password for a 5-minute handoff token',
      tags: ['auth'],
      body: LoginBody,
      response: { 200: HandoffResponse, 400: ErrorEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  verifyHandoff: {
    method: 'POST',
    url: '/auth/verify-handoff',
    owner: 'auth',
    access: 'public',
    noStore: true,
    rateLimits: [AUTH_IP_LIMIT],
    schema: {
      summary: 'Exchange a handoff token for an access token (or a dashboard token)',
      tags: ['auth'],
      body: VerifyHandoffBody,
      response: { 200: SessionResponse, 400: ErrorEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  logout: {
    method: 'POST',
    url: '/auth/logout',
    owner: 'auth',
    access: 'optional',
    schema: {
      summary: 'Client-side logout; stateless, always 204',
      description: 'Needs no token (one that is sent is not checked). Fails only for a body that is not JSON.',
      tags: ['auth'],
      response: { 204: Type.Null({ description: 'No content' }), 400: ErrorEnvelope, 415: ErrorEnvelope },
    },
  },
  me: {
    method: 'GET',
    url: '/auth/me',
    owner: 'auth',
    access: 'user',
    schema: {
      summary: 'The caller as the token describes it',
      tags: ['auth'],
      response: { 200: MeResponse, 401: ErrorEnvelope, 404: ErrorEnvelope },
    },
  },
});

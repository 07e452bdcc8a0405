import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JWT_AUDIENCE, TOKEN_ISSUER } from '@crawl/contracts';
import { IDENTITY_HEADER } from '@crawl/service-client';
import { startTestService, type TestService } from '@crawl/testkit';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayModule } from '../../module.ts';

const SECRET = 'bearer-routes-test-secret-that-is-long-enough-0123';
const NOWHERE = 'http://127.0.0.1:9';
const token = createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.api, expiresIn: 60_000 })({
  sub: 'usr_1',
  org: 'org_1',
  email: 'ada@example.com',
  role: 'user',
});

describe('bearer tokens at the gateway', () => {
  let auth: Server;
  /** Requests that got past the gateway to the auth service, and whether they carried an identity. */
  const forwarded: boolean[] = [];
  /** The request id of the last request the auth service got. */
  let ownerSawRequestId: string | undefined;
  let svc: TestService;
  beforeAll(async () => {
    auth = createServer((req, res) => {
      forwarded.push(typeof req.headers[IDENTITY_HEADER] === 'string');
      ownerSawRequestId = req.headers['x-request-id'] as string | undefined;
      res.writeHead(200, { 'content-type': 'application/json', 'x-owner': 'auth' }).end('{"data":{"ok":true}}');
    });
    auth.listen(0, '127.0.0.1');
    await once(auth, 'listening');
    const authUrl = `http://127.0.0.1:${(auth.address() as AddressInfo).port}`;
    svc = await startTestService({
      modules: [createGatewayModule()],
      env: { JWT_SECRET: SECRET, AUTH_URL: authUrl, CATALOG_URL: NOWHERE, BILLING_URL: NOWHERE },
    });
  });
  afterAll(async () => {
    await svc.close();
    auth.close();
  });
  const me = (authorization?: string) => svc.request({ method: 'GET', url: '/auth/me', headers: authorization === undefined ? {} : { authorization } });

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts a valid token under the scheme name %s (case-insensitive)', async (scheme) => {
    forwarded.length = 0;
    const res = await me(`${scheme} ${token}`);
    expect(res.status).toBe(200);
    expect(forwarded).toEqual([true]);
  });

  it.each([
    ['a word', 'Bearer garbage'],
    ['a word, lower-case scheme', 'bearer garbage'],
    ['three made-up parts', 'Bearer x.y.z'],
    ['a token of another secret', `Bearer ${token.slice(0, -4)}AAAA`],
  ])('answers a bearer token that is %s with 401 "Invalid access token"', async (_label, authorization) => {
    forwarded.length = 0;
    const res = await me(authorization);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid access token', details: [] } });
    expect(forwarded).toEqual([]);
  });

  it('tells another scheme and a missing header apart from a bad token', async () => {
    const basic = await me('Basic dXNlcjpwYXNz');
    expect(basic.status).toBe(401);
    expect(basic.body.error.message).toBe('Unsupported Authorization header; expected "Bearer <token>"');
    const missing = await me();
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
  });

  it("relays the owner's answer with the edge's headers: security, CORS and the request id the owner got", async () => {
    const res = await me(`Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    expect(res.headers).toMatchObject({
      'x-owner': 'auth',
      'content-type': 'application/json',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'x-request-id, retry-after, content-disposition',
    });
    expect(res.headers['x-request-id']).toMatch(/\S+/);
    expect(res.headers['x-request-id']).toBe(ownerSawRequestId);
  });
});

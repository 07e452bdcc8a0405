import type { Simulator } from '@crawl/marketplace-simulator';
import { expect } from 'vitest';
import { call } from './http-call.ts';

/**
 * The environment of an all-in-one service that crawls `sim` quickly: its own JWT secret, cheap
 * password hashing, the simulator as the marketplace, a generous rate and short backoffs. `extra`
 * adds or overrides settings.
 */
export function crawlEnv(sim: Simulator, secret: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    JWT_SECRET: secret,
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
    MARKETPLACE: 'live',
    MARKETPLACE_BASE_URL: sim.url,
    MARKETPLACE_EXTRA_HOSTS: sim.host,
    UPSTREAM_RATE_PER_MINUTE: '6000',
    UPSTREAM_BURST: '20',
    CRAWL_CONCURRENCY: '1',
    FETCH_BACKOFF_MS: '20',
    SHUTDOWN_GRACE_MS: '2000',
    ...extra,
  };
}

/** A new user (with their organization) and a project of theirs on the service at `url`. */
export async function signUpWithProject(url: string, label: string): Promise<{ token: string; projectId: string }> {
  const registered = await call(url, 'POST', '/auth/register', {
    body: { email: `${label}-${Date.now()}@example.com`, password: 'a-long-enough-password' },
  });
  expect(registered.status).toBe(201);
  const token = registered.body.accessToken as string;
  const project = await call(url, 'POST', '/projects', { token, body: { name: label } });
  expect(project.status).toBe(201);
  return { token, projectId: project.body.data.id as string };
}

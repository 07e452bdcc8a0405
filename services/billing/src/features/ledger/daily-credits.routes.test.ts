import type { Identity } from '@crawl/contracts';
import { IDENTITY_HEADER } from '@crawl/service-client';
import { startTestService, type TestService } from '@crawl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { billingModule } from '../../module.ts';

const identity: Identity = { userId: 'usr_daily', organizationId: 'org_daily', email: 'daily@example.com', role: 'user', audience: 'api' };

describe('GET /usage/daily', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it("answers every day of the month with the caller's credits spent and added, and refuses a malformed month", async () => {
    svc = await startTestService({
      modules: [billingModule],
      env: { CATALOG_URL: 'http://127.0.0.1:9', RECONCILE_INTERVAL_MS: '0', SIGNUP_BONUS_CREDITS: '250' },
    });
    const headers = { [IDENTITY_HEADER]: svc.context('billing').tokens.signIdentity(identity) };
    const now = new Date();
    const month = now.toISOString().slice(0, 7);

    const current = await svc.request({ method: 'GET', url: '/usage/daily', headers });
    expect(current.status, current.text).toBe(200);
    expect(current.body.data.month).toBe(month);
    const daysInMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    expect(current.body.data.days).toHaveLength(daysInMonth);
    // The account opened on this first call, with its signup bonus today.
    const today = now.toISOString().slice(0, 10);
    expect(current.body.data.days.find((day: { date: string }) => day.date === today)).toEqual({
      date: today,
      spent: 0,
      added: 250,
      chargedTargets: 0,
      unchargedTargets: 0,
    });

    const past = await svc.request({ method: 'GET', url: '/usage/daily?month=2020-02&cacheBuster=1', headers });
    expect(past.status).toBe(200);
    expect(past.body.data.days).toHaveLength(29);
    expect(past.body.data.days.every((day: { spent: number; added: number }) => day.spent === 0 && day.added === 0)).toBe(true);

    const bad = await svc.request({ method: 'GET', url: '/usage/daily?month=2026-13', headers });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });
});

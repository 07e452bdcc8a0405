import type { ReserveBody } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { registerAdmin, startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { BillingClient } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerProblems } from '@crawl/billing/testing/billing-fixture';

const ADMIN_EMAIL = 'root@example.com';
const OPS_EMAIL = 'ops@example.com';

function billingClient(svc: TestService): BillingClient {
  return new BillingClient(svc.context('catalog').client('billing'));
}

const reserveBody = (user: TestUser, jobId: string, targetCount: number, extra: Partial<ReserveBody> = {}): ReserveBody => ({
  organizationId: user.organizationId,
  jobId,
  jobType: 'search',
  targetCount,
  reason: 'job.create',
  ...extra,
});

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    const e = error as { statusCode?: number; code?: string };
    return `${e.statusCode} ${e.code}`;
  }
}

function expectEnvelope(body: unknown, code: string): void {
  expect(body).toMatchObject({ success: false, error: { code, message: expect.any(String), details: expect.any(Array) } });
}

describe('billing through the gateway', () => {
  let svc: TestService;
  let alice: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000' } });
    alice = await svc.registerUser();
    admin = await registerAdmin(svc, { email: ADMIN_EMAIL });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('documents every billing route in OpenAPI and keeps the internal API out of it', async () => {
    const res = await svc.request({ method: 'GET', url: '/openapi.json' });
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/usage',
        '/private/credits/packages',
        '/private/credits/checkout',
        '/referral/code',
        '/referral/click',
        '/referral/stats',
        '/admin/organizations/{organizationId}/credits',
        '/admin/organizations/{organizationId}/limits',
        '/admin/organizations/{organizationId}/usage',
        '/admin/organizations/{organizationId}/ledger',
        '/admin/billing/reconcile',
      ]),
    );
    expect(paths.filter((path) => path.startsWith('/internal'))).toEqual([]);
  });

  describe('GET /usage', () => {
    it('reports the spec keys, remaining = limits - used, and the credit balance with the signup bonus', async () => {
      const user = await svc.registerUser();
      const res = await svc.request({ method: 'GET', url: '/usage', token: user.token });
      expect(res.status).toBe(200);
      const { limits, used, remaining, credits } = res.body.data;
      expect(Object.keys(limits).sort()).toEqual(['exportsPerMonth', 'jobsPerMonth', 'targetsPerMonth']);
      expect(Object.keys(used).sort()).toEqual(['exportsThisMonth', 'jobsThisMonth', 'targetsThisMonth']);
      expect(Object.keys(remaining).sort()).toEqual(['exportsPerMonth', 'jobsPerMonth', 'targetsPerMonth']);
      expect(limits).toEqual({ jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 });
      expect(credits).toEqual({ available: 1000, reserved: 0 });

      await billingClient(svc).reserve(reserveBody(user, 'job_usage_1', 4));
      await billingClient(svc).consumeExport({ organizationId: user.organizationId, jobId: 'job_usage_1', format: 'csv' });
      const after = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
      expect(after.used).toEqual({ jobsThisMonth: 1, targetsThisMonth: 4, exportsThisMonth: 1 });
      expect(after.remaining).toEqual({ jobsPerMonth: 9, targetsPerMonth: 96, exportsPerMonth: 19 });
      expect(after.credits).toEqual({ available: 980, reserved: 20 });
    });

    it('answers 401 UNAUTHORIZED with the envelope without a token', async () => {
      const res = await svc.request({ method: 'GET', url: '/usage' });
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED');
    });
  });

  describe('credit packages and checkout', () => {
    it('lists the catalog for a dashboard token only', async () => {
      const dash = await svc.dashboardToken(alice);
      const res = await svc.request({ method: 'GET', url: '/private/credits/packages', token: dash });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const pkg of res.body.data) {
        expect(Object.keys(pkg).sort()).toEqual(['bonusCredits', 'credits', 'currency', 'id', 'name', 'priceCents']);
        // Display rate: 1 currency unit = 10,000 credits.
        expect(pkg.credits).toBe(pkg.priceCents * 100);
      }
      const normal = await svc.request({ method: 'GET', url: '/private/credits/packages', token: alice.token });
      expect(normal.status).toBe(403);
      expectEnvelope(normal.body, 'FORBIDDEN');
      const anonymous = await svc.request({ method: 'GET', url: '/private/credits/packages' });
      expect(anonymous.status).toBe(401);
      expectEnvelope(anonymous.body, 'UNAUTHORIZED');
    });

    it('turns a package into credits once, in the ledger and the audit log', async () => {
      const buyer = await svc.registerUser();
      const dash = await svc.dashboardToken(buyer);
      const packages = (await svc.request({ method: 'GET', url: '/private/credits/packages', token: dash })).body.data;
      const pkg = packages[0];
      const body = { packageId: pkg.id, idempotencyKey: 'checkout-0001' };
      const res = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body });
      expect(res.status).toBe(201);
      expect(res.body.data.order).toMatchObject({ packageId: pkg.id, status: 'completed', provider: 'sandbox', credits: pkg.credits + pkg.bonusCredits });
      expect(res.body.data.credits.available).toBe(1000 + pkg.credits + pkg.bonusCredits);

      const repeat = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body });
      expect(repeat.status).toBe(201);
      expect(repeat.body.data.order.id).toBe(res.body.data.order.id);
      expect(repeat.body.data.credits.available).toBe(1000 + pkg.credits + pkg.bonusCredits);

      const ledger = await svc.request({ method: 'GET', url: `/admin/organizations/${buyer.organizationId}/ledger`, token: admin.token });
      expect(ledger.status).toBe(200);
      const purchases = ledger.body.data.filter((e: { kind: string }) => e.kind === 'purchase');
      expect(purchases).toHaveLength(1);
      expect(purchases[0]).toMatchObject({ orderId: res.body.data.order.id, amount: pkg.credits + pkg.bonusCredits, actorUserId: buyer.userId });

      const audit = await svc.request({ method: 'GET', url: '/audit?action=credits.purchase', token: buyer.token });
      expect(audit.status).toBe(200);
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({ action: 'credits.purchase', resourceId: res.body.data.order.id, actorUserId: buyer.userId });
    });

    it('rejects bad checkout input with 400 and an unknown package with 404', async () => {
      const dash = await svc.dashboardToken(alice);
      for (const body of [{}, { packageId: '' }, { packageId: 'starter', credits: 1_000_000 }, { packageId: 'x'.repeat(65) }, { packageId: ['a', 'b'] }]) {
        const res = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expectEnvelope(res.body, 'VALIDATION_ERROR');
      }
      const unknown = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body: { packageId: 'nope' } });
      expect(unknown.status).toBe(404);
      expectEnvelope(unknown.body, 'NOT_FOUND');
      const normal = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: alice.token, body: { packageId: 'starter' } });
      expect(normal.status).toBe(403);
    });
  });

  describe('referrals', () => {
    it('links a registration to the code, rewards the referrer once after the first paid purchase (not for jobs), and reports stats', async () => {
      const referrer = await svc.registerUser();
      const codeRes = await svc.request({ method: 'GET', url: '/referral/code', token: referrer.token });
      expect(codeRes.status).toBe(200);
      const code: string = codeRes.body.data.code;
      expect((await svc.request({ method: 'GET', url: '/referral/code', token: referrer.token })).body.data.code).toBe(code);

      const click = await svc.request({ method: 'POST', url: '/referral/click', body: { code }, headers: { 'x-forwarded-for': '10.0.0.1' } });
      expect(click.status).toBe(200);
      const friend = await svc.registerUser({ referralCode: code.toLowerCase() });

      let stats = (await svc.request({ method: 'GET', url: '/referral/stats', token: referrer.token })).body.data;
      expect(stats).toMatchObject({ code, signups: 1, rewards: 0, rewardCredits: 0 });
      expect(stats.clicks).toBeGreaterThanOrEqual(1);

      // Jobs on the free signup credits earn the referrer nothing: that is what farming used.
      for (const [jobId, succeeded] of [
        ['job_ref_0', 0],
        ['job_ref_1', 2],
      ] as const) {
        await billingClient(svc).reserve(reserveBody(friend, jobId, 2));
        await billingClient(svc).settle({
          organizationId: friend.organizationId,
          jobId,
          succeededTargets: succeeded,
          failedTargets: 2 - succeeded,
          cancelledTargets: 0,
        });
      }
      expect((await svc.request({ method: 'GET', url: '/usage', token: referrer.token })).body.data.credits.available).toBe(1000);

      const friendDash = await svc.dashboardToken(friend);
      for (const idempotencyKey of ['ref-purchase-1', 'ref-purchase-2']) {
        const bought = await svc.request({
          method: 'POST',
          url: '/private/credits/checkout',
          token: friendDash,
          body: { packageId: 'starter', idempotencyKey },
        });
        expect(bought.status).toBe(201);
      }
      expect((await svc.request({ method: 'GET', url: '/usage', token: referrer.token })).body.data.credits.available).toBe(1500);
      stats = (await svc.request({ method: 'GET', url: '/referral/stats', token: referrer.token })).body.data;
      expect(stats).toMatchObject({ signups: 1, rewards: 1, rewardCredits: 500 });
      const friendStats = (await svc.request({ method: 'GET', url: '/referral/stats', token: friend.token })).body.data;
      expect(friendStats).toMatchObject({ signups: 0, rewards: 0 });
    });

    it('ignores self-referral and unknown codes at registration', async () => {
      const user = await svc.registerUser({ referralCode: 'UNKNOWN1' });
      const code = (await svc.request({ method: 'GET', url: '/referral/code', token: user.token })).body.data.code;
      await billingClient(svc).openAccount({ organizationId: user.organizationId, ownerUserId: user.userId, referralCode: code });
      expect((await svc.request({ method: 'GET', url: '/referral/stats', token: user.token })).body.data.signups).toBe(0);
      expect((await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data.credits.available).toBe(1000);
    });

    it('throttles clicks to 5 per 10 seconds per address, then 429 RATE_LIMIT_EXCEEDED', async () => {
      const code = (await svc.request({ method: 'GET', url: '/referral/code', token: alice.token })).body.data.code;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await svc.app.inject({ method: 'POST', url: '/referral/click', payload: { code }, remoteAddress: '10.9.9.9' });
        statuses.push(res.statusCode);
        if (i === 5) {
          expect(res.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
          expect(res.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const other = await svc.app.inject({ method: 'POST', url: '/referral/click', payload: { code }, remoteAddress: '10.9.9.10' });
      expect(other.statusCode).toBe(200);
    });

    it('answers 404 for an unknown code and 400 for a malformed body', async () => {
      const unknown = await svc.app.inject({ method: 'POST', url: '/referral/click', payload: { code: 'ZZZZZZZZ' }, remoteAddress: '10.1.1.1' });
      expect(unknown.statusCode).toBe(404);
      for (const payload of [{}, { code: '' }, { code: 'a'.repeat(65) }, { code: 'ABC', extra: 1 }, { code: '<script>' }]) {
        const res = await svc.app.inject({ method: 'POST', url: '/referral/click', payload, remoteAddress: '10.1.1.2' });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      }
    });
  });

  describe('admin', () => {
    it('requires an admin token: 401 without one, 403 FORBIDDEN for a user', async () => {
      const url = `/admin/organizations/${alice.organizationId}/usage`;
      const anonymous = await svc.request({ method: 'GET', url });
      expect(anonymous.status).toBe(401);
      expectEnvelope(anonymous.body, 'UNAUTHORIZED');
      const user = await svc.request({ method: 'GET', url, token: alice.token });
      expect(user.status).toBe(403);
      expectEnvelope(user.body, 'FORBIDDEN');
      const grant = await svc.request({
        method: 'POST',
        url: `/admin/organizations/${alice.organizationId}/credits`,
        token: alice.token,
        body: { type: 'grant', amount: 5, reason: 'x' },
      });
      expect(grant.status).toBe(403);
    });

    it('grants and revokes credits, refusing to revoke more than is available', async () => {
      const org = await svc.registerUser();
      const url = `/admin/organizations/${org.organizationId}/credits`;
      const grant = await svc.request({ method: 'POST', url, token: admin.token, body: { type: 'grant', amount: 250, reason: 'goodwill' } });
      expect(grant.status).toBe(201);
      expect(grant.body.data.entry).toMatchObject({ kind: 'admin_grant', amount: 250, reason: 'goodwill', actorUserId: admin.userId });
      expect(grant.body.data.balance).toEqual({ available: 1250, reserved: 0, spent: 0, granted: 1250 });

      const revoke = await svc.request({ method: 'POST', url, token: admin.token, body: { type: 'revoke', amount: 1000, reason: 'abuse' } });
      expect(revoke.status).toBe(201);
      expect(revoke.body.data.balance).toEqual({ available: 250, reserved: 0, spent: 0, granted: 250 });

      const tooMuch = await svc.request({ method: 'POST', url, token: admin.token, body: { type: 'revoke', amount: 251, reason: 'abuse' } });
      expect(tooMuch.status).toBe(409);
      expectEnvelope(tooMuch.body, 'CONFLICT');

      for (const body of [
        { type: 'grant', amount: 0, reason: 'x' },
        { type: 'grant', amount: -5, reason: 'x' },
        { type: 'gift', amount: 5, reason: 'x' },
        { type: 'grant', amount: 5 },
        { type: 'grant', amount: 5, reason: 'x', organizationId: 'other' },
        { type: 'grant', amount: 1.5, reason: 'x' },
      ]) {
        const res = await svc.request({ method: 'POST', url, token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expectEnvelope(res.body, 'VALIDATION_ERROR');
      }
      const missing = await svc.request({
        method: 'POST',
        url: '/admin/organizations/org_nope/credits',
        token: admin.token,
        body: { type: 'grant', amount: 5, reason: 'x' },
      });
      expect(missing.status).toBe(404);

      const audit = await svc.request({ method: 'GET', url: '/audit?action=credits.grant', token: org.token });
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({
        actorUserId: admin.userId,
        resourceId: grant.body.data.entry.id,
        metadata: { amount: 250, reason: 'goodwill' },
      });

      const ledger = await svc.request({ method: 'GET', url: `/admin/organizations/${org.organizationId}/ledger?limit=2`, token: admin.token });
      expect(ledger.body.meta).toEqual({ total: 3, limit: 2, offset: 0 });
      expect(ledger.body.data.map((e: { kind: string }) => e.kind)).toEqual(['admin_revoke', 'admin_grant']);
      expect(ledger.body.data.map((e: { sequence: number }) => e.sequence)).toEqual([3, 2]);
    });

    it("sets an organization's plan limits, enforced on reservations and shown in /usage", async () => {
      const org = await svc.registerUser();
      const url = `/admin/organizations/${org.organizationId}/limits`;
      const set = await svc.request({ method: 'PATCH', url, token: admin.token, body: { jobsPerMonth: 1, exportsPerMonth: 50 } });
      expect(set.status).toBe(200);
      expect(set.body.data.limits).toEqual({ jobsPerMonth: 1, targetsPerMonth: 100, exportsPerMonth: 50 });
      expect((await svc.request({ method: 'GET', url: '/usage', token: org.token })).body.data.limits).toEqual({
        jobsPerMonth: 1,
        targetsPerMonth: 100,
        exportsPerMonth: 50,
      });

      expect(await outcome(billingClient(svc).reserve(reserveBody(org, 'job_lim_1', 1)))).toBe('ok');
      expect(await outcome(billingClient(svc).reserve(reserveBody(org, 'job_lim_2', 1)))).toBe('403 FORBIDDEN');

      const zero = await svc.request({ method: 'PATCH', url, token: admin.token, body: { exportsPerMonth: 0 } });
      expect(zero.body.data.limits.exportsPerMonth).toBe(0);
      const reset = await svc.request({ method: 'PATCH', url, token: admin.token, body: { jobsPerMonth: null, exportsPerMonth: null } });
      expect(reset.body.data.limits).toEqual({ jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 });
      expect(await outcome(billingClient(svc).reserve(reserveBody(org, 'job_lim_2', 1)))).toBe('ok');

      const usage = await svc.request({ method: 'GET', url: `/admin/organizations/${org.organizationId}/usage`, token: admin.token });
      expect(usage.status).toBe(200);
      expect(usage.body.data).toMatchObject({
        used: { jobsThisMonth: 2, targetsThisMonth: 2 },
        balance: { available: 990, reserved: 10, spent: 0, granted: 1000 },
      });

      for (const body of [{}, { jobsPerMonth: -1 }, { jobsPerMonth: 'ten' }, { jobsPerMonth: 1.5 }, { plan: 'gold' }]) {
        const res = await svc.request({ method: 'PATCH', url, token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
    });
  });

  describe('internal billing API', () => {
    it('is closed to public callers', async () => {
      const res = await svc.request({ method: 'POST', url: '/internal/billing/reservations', token: alice.token, body: reserveBody(alice, 'job_x', 1) });
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED');
    });

    it('reserves idempotently, refuses 402 with nothing reserved, settles once and releases', async () => {
      const user = await svc.registerUser();
      const client = billingClient(svc);
      const first = await client.reserve(reserveBody(user, 'job_int_1', 10));
      expect(await client.reserve(reserveBody(user, 'job_int_1', 10))).toEqual(first);
      expect(first).toMatchObject({ credits: 50, status: 'held' });

      expect(await outcome(client.reserve(reserveBody(user, 'job_int_big', 50, { unitsPerTarget: 5 })))).toBe('402 INSUFFICIENT_CREDITS');
      const usage = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
      expect(usage.used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 10 });
      expect(usage.credits).toEqual({ available: 950, reserved: 50 });

      const settled = await client.settle({
        organizationId: user.organizationId,
        jobId: 'job_int_1',
        succeededTargets: 7,
        failedTargets: 2,
        cancelledTargets: 1,
      });
      expect(settled).toEqual({ jobId: 'job_int_1', captured: 35, released: 15, alreadySettled: false });
      expect(
        (await client.settle({ organizationId: user.organizationId, jobId: 'job_int_1', succeededTargets: 10, failedTargets: 0, cancelledTargets: 0 }))
          .alreadySettled,
      ).toBe(true);

      await client.reserve(reserveBody(user, 'job_int_2', 2));
      expect(await client.release('job_int_2', { organizationId: user.organizationId, reason: 'persist failed' })).toMatchObject({
        status: 'released',
        released: 10,
      });
      expect((await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data).toMatchObject({
        used: { jobsThisMonth: 1, targetsThisMonth: 10 },
        credits: { available: 965, reserved: 0 },
      });
      expect(await ledgerProblems(svc.store('billing'), user.organizationId)).toEqual([]);
    });

    it('opens an account lazily with the bonus when registration could not', async () => {
      const client = billingClient(svc);
      const reservation = await client.reserve({
        organizationId: 'org_never_opened',
        jobId: 'job_lazy',
        jobType: 'details',
        targetCount: 3,
        reason: 'job.retry',
      });
      expect(reservation.credits).toBe(6);
      const balance = await client.openAccount({ organizationId: 'org_never_opened', ownerUserId: 'usr_x' });
      expect(balance).toMatchObject({ available: 994, reserved: 6, granted: 1000 });
    });

    it('answers 400 for malformed internal bodies, never 5xx', async () => {
      const headers = { ...svc.internalHeaders('catalog'), 'content-type': 'application/json' };
      for (const body of [
        {},
        { ...reserveBody(alice, 'j', 0) },
        { ...reserveBody(alice, 'j', 1), jobType: 'video' },
        { ...reserveBody(alice, 'j', 1), unitsPerTarget: 5000 },
      ]) {
        const res = await svc.app.inject({ method: 'POST', url: '/internal/billing/reservations', headers, payload: JSON.stringify(body) });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });

    it('keeps the invariant when many reservations race for the last credits', async () => {
      const user = await svc.registerUser();
      await svc.request({
        method: 'PATCH',
        url: `/admin/organizations/${user.organizationId}/limits`,
        token: admin.token,
        body: { jobsPerMonth: 1000, targetsPerMonth: 100_000 },
      });
      const client = billingClient(svc);
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome(client.reserve(reserveBody(user, `job_race_${i}`, 9)))));
      // 1000 credits, 45 per job: 22 fit.
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(22);
      expect(outcomes.filter((o) => o === '402 INSUFFICIENT_CREDITS')).toHaveLength(18);
      const usage = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
      expect(usage.credits).toEqual({ available: 10, reserved: 990 });
      expect(usage.used).toMatchObject({ jobsThisMonth: 22, targetsThisMonth: 198 });
      expect(await ledgerProblems(svc.store('billing'))).toEqual([]);
    });
  });
});

describe('billing with a controllable clock', () => {
  let svc: TestService;
  const clock = new ManualClock('2026-11-30T23:00:00.000Z');

  beforeAll(async () => {
    svc = await startTestService({
      clock,
      env: {
        LIMIT_JOBS_PER_MONTH: '2',
        LIMIT_TARGETS_PER_MONTH: '5',
        LIMIT_EXPORTS_PER_MONTH: '1',
        RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000,admin-api=3',
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('takes the default limits from the environment and starts again in the next UTC month', async () => {
    const user = await svc.registerUser();
    const client = billingClient(svc);
    await client.reserve(reserveBody(user, 'job_m1', 4));
    expect(await outcome(client.reserve(reserveBody(user, 'job_m2', 2)))).toBe('403 FORBIDDEN');
    await client.reserve(reserveBody(user, 'job_m2', 1));
    expect(await outcome(client.reserve(reserveBody(user, 'job_m3', 1)))).toBe('403 FORBIDDEN');
    await client.consumeExport({ organizationId: user.organizationId, jobId: 'job_m1', format: 'json' });
    expect(await outcome(client.consumeExport({ organizationId: user.organizationId, jobId: 'job_m1', format: 'json' }))).toBe('403 FORBIDDEN');
    let usage = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
    expect(usage).toMatchObject({
      month: '2026-11',
      resetsAt: '2026-12-01T00:00:00.000Z',
      limits: { jobsPerMonth: 2, targetsPerMonth: 5, exportsPerMonth: 1 },
    });
    expect(usage.remaining).toEqual({ jobsPerMonth: 0, targetsPerMonth: 0, exportsPerMonth: 0 });

    clock.set('2026-12-01T00:00:00.000Z');
    usage = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
    expect(usage.month).toBe('2026-12');
    expect(usage.used).toEqual({ jobsThisMonth: 0, targetsThisMonth: 0, exportsThisMonth: 0 });
    expect(await outcome(client.reserve(reserveBody(user, 'job_m3', 5)))).toBe('ok');
  });

  it('releases a reservation whose job catalog never created, via the reconciler', async () => {
    const user = await svc.registerUser();
    const client = billingClient(svc);
    clock.set('2026-12-10T10:00:00.000Z');
    await client.reserve(reserveBody(user, 'job_ghost_route', 2));
    const admin = await registerAdmin(svc, { email: ADMIN_EMAIL });
    clock.advance(16 * 60_000);
    const run = await svc.request({ method: 'POST', url: '/admin/billing/reconcile', token: admin.token });
    expect(run.status).toBe(200);
    expect(run.body.data.releasedMissingJobs).toBeGreaterThanOrEqual(1);
    expect(run.body.data.catalogChecked).toBe(true);
    const usage = (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
    expect(usage.credits).toEqual({ available: 1000, reserved: 0 });
    expect(usage.used.jobsThisMonth).toBe(0);
  });

  it('throttles admin routes per admin by the operator-configured admin-api limit (3 here)', async () => {
    const ops = await registerAdmin(svc, { email: OPS_EMAIL });
    const other = await svc.registerUser();
    const statuses: number[] = [];
    let last: { body: unknown; headers: Record<string, unknown> } | undefined;
    for (let i = 0; i < 5; i += 1) {
      const res = await svc.request({ method: 'GET', url: `/admin/organizations/${other.organizationId}/usage`, token: ops.token });
      statuses.push(res.status);
      last = res;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expectEnvelope(last?.body, 'RATE_LIMIT_EXCEEDED');
    expect(last?.headers['retry-after']).toBeDefined();
  });
});

describe('billing behind the public job routes', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { LIMIT_JOBS_PER_MONTH: '3', LIMIT_TARGETS_PER_MONTH: '100', SIGNUP_BONUS_CREDITS: '30' } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('reserves on job create, refuses 402 and 403 with nothing consumed, and refunds a cancelled job', async () => {
    const user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'billing' } });
    expect(project.status).toBe(201);
    const jobsUrl = `/projects/${project.body.data.id}/jobs`;
    const usage = async () => (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;

    const created = await svc.request({ method: 'POST', url: jobsUrl, token: user.token, body: { type: 'search', targets: ['usb cable', 'desk lamp'] } });
    expect(created.status).toBe(201);
    expect((await usage()).credits).toEqual({ available: 20, reserved: 10 });

    const tooExpensive = await svc.request({ method: 'POST', url: jobsUrl, token: user.token, body: { type: 'search', targets: ['a', 'b', 'c', 'd', 'e'] } });
    expect(tooExpensive.status).toBe(402);
    expectEnvelope(tooExpensive.body, 'INSUFFICIENT_CREDITS');
    expect((await usage()).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });
    expect((await usage()).credits).toEqual({ available: 20, reserved: 10 });

    for (const asin of ['B000000001', 'B000000002']) {
      const res = await svc.request({ method: 'POST', url: jobsUrl, token: user.token, body: { type: 'details', targets: [asin] } });
      expect(res.status).toBe(201);
    }
    const overLimit = await svc.request({ method: 'POST', url: jobsUrl, token: user.token, body: { type: 'details', targets: ['B000000003'] } });
    expect(overLimit.status).toBe(403);
    expectEnvelope(overLimit.body, 'FORBIDDEN');
    const after = await usage();
    expect(after.used).toEqual({ jobsThisMonth: 3, targetsThisMonth: 4, exportsThisMonth: 0 });
    expect(after.remaining).toEqual({ jobsPerMonth: 0, targetsPerMonth: 96, exportsPerMonth: 20 });
    expect(after.credits).toEqual({ available: 16, reserved: 14 });

    const cancelled = await svc.request({ method: 'POST', url: `/jobs/${created.body.data.id}/cancel`, token: user.token });
    expect(cancelled.status).toBeLessThan(300);
    expect((await usage()).credits).toEqual({ available: 26, reserved: 4 });
    expect(await ledgerProblems(svc.store('billing'), user.organizationId)).toEqual([]);
  });
});

import type { RecordAuditBody } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture, closeFixtures, ledgerProblems } from '../testing/billing-fixture.ts';

afterEach(closeFixtures);

const adjustment = (type: 'grant' | 'revoke', amount: number, operationId: string) => ({
  organizationId: 'org_a',
  type,
  amount,
  reason: 'support',
  actorUserId: 'usr_admin',
  operationId,
  requestId: 'req_1',
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.statusCode} ${error.code}`;
    throw error;
  }
}

describe('admin credits', () => {
  it('grants and revokes once per operation, audits each, and refuses a revoke beyond what is available', async () => {
    const events: RecordAuditBody[] = [];
    const { billing, store } = await billingFixture({ SIGNUP_BONUS_CREDITS: 100 }, { audit: async (event) => void events.push(event) });
    await billing.operations.openAccount('org_a', 'usr_a');
    const granted = await billing.operations.adjustCredits(adjustment('grant', 50, 'op_1'));
    expect(granted.balance).toEqual({ available: 150, reserved: 0, spent: 0, granted: 150 });
    expect(await refusal(billing.operations.adjustCredits(adjustment('revoke', 151, 'op_2')))).toBe('409 CONFLICT');
    const revoked = await billing.operations.adjustCredits(adjustment('revoke', 150, 'op_3'));
    expect(revoked.balance).toMatchObject({ available: 0, granted: 0 });
    expect(events.map((event) => [event.action, event.resourceId, event.requestId])).toEqual([
      ['credits.grant', granted.entry._id, 'req_1'],
      ['credits.revoke', revoked.entry._id, 'req_1'],
    ]);
    // The operation id keys the entry: the same operation again grants nothing more.
    expect((await billing.operations.adjustCredits(adjustment('grant', 50, 'op_1'))).entry._id).toBe(granted.entry._id);
    expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 0, granted: 0 });
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('still adjusts when the audit log is unreachable', async () => {
    const { billing } = await billingFixture({}, { audit: async () => Promise.reject(new Error('catalog down')) });
    await billing.operations.openAccount('org_a', 'usr_a');
    expect((await billing.operations.adjustCredits(adjustment('grant', 5, 'op_1'))).balance.available).toBe(1005);
  });

  it('answers 404 for an organization billing has never seen, and opens no account for it', async () => {
    const { billing } = await billingFixture();
    expect(await refusal(billing.operations.adjustCredits(adjustment('grant', 5, 'op_1')))).toBe('404 NOT_FOUND');
    expect(await refusal(billing.operations.ledgerPage('org_a', { limit: 10, offset: 0 }))).toBe('404 NOT_FOUND');
    expect(await billing.accounts.find('org_a')).toBeNull();
  });

  it('pages the ledger newest first', async () => {
    const { billing } = await billingFixture();
    await billing.operations.openAccount('org_a', 'usr_a');
    for (const operation of ['op_1', 'op_2']) await billing.operations.adjustCredits(adjustment('grant', 5, operation));
    const page = await billing.operations.ledgerPage('org_a', { limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.entries.map((entry) => entry.kind)).toEqual(['admin_grant', 'admin_grant']);
    expect((await billing.operations.ledgerPage('org_a', { limit: 2, offset: 2 })).entries.map((entry) => entry.kind)).toEqual(['signup_bonus']);
  });
});

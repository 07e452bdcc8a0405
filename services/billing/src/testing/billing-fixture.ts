import { loadConfig } from '@crawl/config';
import type { FullBalance } from '@crawl/contracts';
import { noMetrics } from '@crawl/metrics';
import { ManualClock, type Clock } from '@crawl/clock';
import type { DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import type { StoreFactory } from './stores.ts';
import { composeBilling, type BillingPorts, type BillingServices } from '../composition.ts';
import { billingRepositories, ensureBillingIndexes, type BillingRepositories } from '../repositories.ts';
import { BillingConfig } from '../config.ts';
import { applyDelta, invariantProblems, ZERO_BALANCE, type BalanceDoc, type LedgerEntryDoc } from '../features/ledger/index.ts';
import type { BillingResources } from '../features/shared/index.ts';

export const silentLogger = { info() {}, warn() {}, error() {} };

/** What a service under test is built over: the test's store and clock, a silent logger, no metrics. */
export function testResources(store: DocumentStore, clock: Clock): BillingResources {
  return { store, clock, logger: silentLogger, metrics: noMetrics };
}

export interface BillingFixture {
  billing: BillingServices;
  /** The repositories the services were built over, for tests that set up or inspect stored state. */
  repositories: BillingRepositories;
  store: DocumentStore;
  clock: ManualClock;
  config: BillingConfig;
}

const open: DocumentStore[] = [];

/** Closes (and for MongoDB drops) every store the fixtures opened; call it in `afterEach`. */
export async function closeFixtures(): Promise<void> {
  for (const store of open.splice(0)) {
    const droppable = store as DocumentStore & { dropDatabase?: () => Promise<void> };
    if (droppable.dropDatabase) await droppable.dropDatabase();
    await store.close();
  }
}

/**
 * The billing domain on a fresh store (in-memory embedded unless a factory says otherwise) and a
 * manual clock (mid-November 2026).
 */
export async function billingFixture(config: Partial<BillingConfig> = {}, ports: BillingPorts = {}, stores?: StoreFactory): Promise<BillingFixture> {
  const store = stores ? stores.make() : EmbeddedDocumentStore.inMemory();
  open.push(store);
  const clock = new ManualClock('2026-11-15T12:00:00.000Z');
  // Checkout tests buy through the sandbox unless they say otherwise.
  const loaded = loadConfig(BillingConfig, {}, { PAYMENT_PROVIDER: 'sandbox', ...config });
  const repositories = billingRepositories(store);
  await ensureBillingIndexes(repositories);
  const billing = composeBilling(testResources(store, clock), repositories, loaded, ports);
  return { billing, repositories, store, clock, config: loaded };
}

/**
 * Every problem with the credit books of one organization (or all): the balance breaks
 * available + reserved + spent = granted or goes negative, the ledger has gaps, or folding the
 * ledger does not give the balance.
 */
export async function ledgerProblems(store: DocumentStore, organizationId?: string): Promise<string[]> {
  const balances = await store.collection<BalanceDoc>('balances').find(organizationId ? { _id: organizationId } : {});
  const problems: string[] = [];
  for (const balance of balances) {
    const figures: FullBalance = { available: balance.available, reserved: balance.reserved, spent: balance.spent, granted: balance.granted };
    problems.push(...invariantProblems(figures).map((p) => `${balance._id}: ${p}`));
    const entries = await store.collection<LedgerEntryDoc>('ledger').find({ organizationId: balance._id }, { sort: { version: 1 } });
    let folded = { ...ZERO_BALANCE };
    entries.forEach((entry, index) => {
      if (entry.version !== index + 1) problems.push(`${balance._id}: ledger entry ${index + 1} has version ${entry.version}`);
      if (entry.version <= balance.version) folded = applyDelta(folded, entry.delta);
    });
    if (entries.length !== balance.version) problems.push(`${balance._id}: ${entries.length} entries but balance at version ${balance.version}`);
    if (JSON.stringify(folded) !== JSON.stringify(figures))
      problems.push(`${balance._id}: ledger folds to ${JSON.stringify(folded)}, balance is ${JSON.stringify(figures)}`);
  }
  return problems;
}

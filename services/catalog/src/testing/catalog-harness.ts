import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogPaths, type Identity, type ReportTargetBody, type ServiceName } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { buildProcess, type CrawlProcess, type DataModuleContext } from '@crawl/runtime';
import { injectJson, type JsonRequest, type JsonResponse } from '@crawl/http-kit/testing';
import { IDENTITY_HEADER, SERVICE_TOKEN_HEADER } from '@crawl/service-client';
import { embeddedBackends } from '@crawl/testkit';
import { catalogOf, type Catalog } from '../catalog.ts';
import type { WebhookOptions } from '../features/webhooks/index.ts';
import { createCatalogModule } from '../module.ts';
import { FakeBilling } from './fake-billing.ts';

export type HarnessResponse<T = any> = JsonResponse<T>;

export interface HarnessUser {
  /** Opaque: the harness signs a fresh gateway identity for it on every request. */
  token: string;
  userId: string;
  organizationId: string;
}

/**
 * The catalog module in a real process (access control, error handler, routes, embedded store on
 * disk in a temp dir, in-process queue) with a fake billing. Callers are authenticated the way
 * the gateway forwards them: a signed identity header.
 */
export interface CatalogHarness {
  process: CrawlProcess;
  billing: FakeBilling;
  clock: ManualClock;
  catalog: Catalog;
  context: DataModuleContext;
  user(organizationId?: string): HarnessUser;
  request<T = any>(req: {
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    url: string;
    token?: string;
    body?: unknown;
    payload?: string;
    headers?: Record<string, string>;
  }): Promise<HarnessResponse<T>>;
  internal<T = any>(req: { method: 'GET' | 'POST'; url: string; body?: unknown; from?: ServiceName }): Promise<HarnessResponse<T>>;
  claim(jobId: string, index: number): Promise<HarnessResponse>;
  report(jobId: string, index: number, body: ReportTargetBody): Promise<HarnessResponse>;
  close(): Promise<void>;
}

/**
 * Webhooks do not dispatch on their own in the harness (tests call `catalog.webhooks.dispatch()`),
 * unless `webhooks.autoDispatch` says so.
 */
export async function startCatalogHarness(
  options: { env?: Record<string, string>; billing?: FakeBilling; clock?: ManualClock; webhooks?: WebhookOptions } = {},
): Promise<CatalogHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-test-'));
  const billing = options.billing ?? new FakeBilling();
  const clock = options.clock ?? new ManualClock('2026-03-02T08:00:00.000Z');
  const module = createCatalogModule({ billing: () => billing, webhooks: { autoDispatch: false, ...options.webhooks } });
  const process = await buildProcess({
    modules: [module],
    backends: embeddedBackends,
    clock,
    env: {
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'catalog-test-secret-that-is-long-enough-0123456789',
      DATA_DIR: dataDir,
      SCHEDULER_TICK_MS: '3600000',
      ...options.env,
    },
  });
  await process.start();
  const context = process.contexts.get('catalog') as DataModuleContext;
  const identities = new Map<string, Identity>();

  const send = <T>(req: JsonRequest): Promise<HarnessResponse<T>> => injectJson<T>(process.app, req);

  const harness: CatalogHarness = {
    process,
    billing,
    clock,
    catalog: catalogOf(context),
    context,
    user(organizationId = `org_${randomUUID().slice(0, 8)}`) {
      const userId = `usr_${randomUUID().slice(0, 8)}`;
      const token = randomUUID();
      identities.set(token, { userId, organizationId, email: `${userId}@example.com`, role: 'user', audience: 'api' });
      return { token, userId, organizationId };
    },
    request(req) {
      const headers: Record<string, string> = { ...req.headers };
      const identity = req.token ? identities.get(req.token) : undefined;
      if (identity) headers[IDENTITY_HEADER] = context.tokens.signIdentity(identity);
      return send({ ...req, headers });
    },
    internal(req) {
      return send({ ...req, headers: { [SERVICE_TOKEN_HEADER]: context.tokens.signService(req.from ?? 'crawler-worker') } });
    },
    claim(jobId, index) {
      return harness.internal({ method: 'POST', url: CatalogPaths.claimTarget(jobId, index), body: {} });
    },
    report(jobId, index, body) {
      return harness.internal({ method: 'POST', url: CatalogPaths.reportTarget(jobId, index), body });
    },
    async close() {
      await process.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

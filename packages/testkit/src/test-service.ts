import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import {
  buildProcess,
  type BackendsFactory,
  type BuildProcessOptions,
  type CrawlProcess,
  type DataModuleContext,
  type AnyServiceModule,
  type ModuleContext,
} from '@crawl/runtime';
import { injectJson, type JsonRequest, type JsonResponse } from '@crawl/http-kit/testing';
import { SERVICE_TOKEN_HEADER } from '@crawl/service-client';
import type { DocumentStore } from '@crawl/storage';
import type { FastifyInstance } from 'fastify';
import { embeddedBackends } from './embedded-backends.ts';

export interface StartTestServiceOptions {
  /** The modules to run. The harness depends on no service: whoever knows them passes them in. */
  modules: readonly AnyServiceModule[];
  /** The adapters; default the all-in-one's (SQLite under the test's DATA_DIR, in-process queues). */
  backends?: BackendsFactory;
  /** Settings for this run; merged over the test defaults. */
  env?: Record<string, string>;
  clock?: Clock;
}

export type TestResponse<T = any> = JsonResponse<T>;

export interface TestRequest extends JsonRequest {
  token?: string;
}

export interface TestUser {
  token: string;
  userId: string;
  organizationId: string;
  email: string;
  password: string;
}

export interface TestService {
  process: CrawlProcess;
  app: FastifyInstance;
  dataDir: string;
  request<T = any>(request: TestRequest): Promise<TestResponse<T>>;
  registerUser(overrides?: { email?: string; password?: string; name?: string; referralCode?: string }): Promise<TestUser>;
  /** A dashboard-audience token for the user (login-handoff, then verify-handoff). */
  dashboardToken(user: Pick<TestUser, 'email' | 'password'>): Promise<string>;
  /** Headers that make an in-process request look like it came from another service. */
  internalHeaders(from: ServiceName): Record<string, string>;
  context<C = any>(service: ServiceName): ModuleContext<C>;
  /** The database of a service that owns data; throws for one that owns none. */
  store(service: ServiceName): DocumentStore;
  close(): Promise<void>;
}

export const TEST_PASSWORD = 'correct-horse-battery-staple';

const TEST_DEFAULTS: Record<string, string> = {
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000',
  ARGON2_MEMORY_KIB: '8192',
  ARGON2_TIME_COST: '1',
  PORT: '0',
  HOST: '127.0.0.1',
  NODE_ENV: 'test',
  // Holds reserved through the internal API have no job: a test that wants the orphan check sets an interval.
  RESERVATION_ORPHAN_CHECK_INTERVAL_MS: '0',
  // Tests buy credits; a deployment must opt in to the sandbox (see docs/security.md).
  PAYMENT_PROVIDER: 'sandbox',
};

function decodeClaims(token: string): { org?: unknown } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { org?: unknown };
}

/**
 * The given modules in one process, on a fresh data directory, driven through the public HTTP
 * surface with `inject`. Close it in `afterAll`/`afterEach`.
 */
export async function startTestService(options: StartTestServiceOptions): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-test-'));
  const env: Record<string, string> = { ...TEST_DEFAULTS, DATA_DIR: dataDir, ...options.env };
  const build: BuildProcessOptions = {
    modules: options.modules,
    backends: options.backends ?? embeddedBackends,
    env,
    ...(options.clock ? { clock: options.clock } : {}),
  };
  const process = await buildProcess(build);
  await process.start();
  const app = process.app;
  const anyContext = process.contexts.values().next().value as ModuleContext;

  const request = <T>(req: TestRequest): Promise<TestResponse<T>> =>
    injectJson<T>(app, { ...req, headers: { ...req.headers, ...(req.token ? { authorization: `Bearer ${req.token}` } : {}) } });

  const service: TestService = {
    process,
    app,
    dataDir,
    request,
    async registerUser(overrides = {}) {
      const email = overrides.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
      const password = overrides.password ?? TEST_PASSWORD;
      const response = await request<{ accessToken: string; user: { id: string } }>({
        method: 'POST',
        url: '/auth/register',
        body: {
          email,
          password,
          ...(overrides.name ? { name: overrides.name } : {}),
          ...(overrides.referralCode ? { referralCode: overrides.referralCode } : {}),
        },
      });
      if (response.status !== 201) throw new Error(`registerUser failed: ${response.status} ${response.text}`);
      const claims = decodeClaims(response.body.accessToken);
      return { token: response.body.accessToken, userId: response.body.user.id, organizationId: String(claims.org), email, password };
    },
    async dashboardToken(user) {
      const handoff = await request<{ handoffToken: string }>({
        method: 'POST',
        url: '/auth/login-handoff',
        body: { email: user.email, password: user.password },
      });
      if (handoff.status !== 200) throw new Error(`login-handoff failed: ${handoff.status} ${handoff.text}`);
      const verified = await request<{ accessToken: string }>({
        method: 'POST',
        url: '/auth/verify-handoff',
        body: { handoffToken: handoff.body.handoffToken, audience: 'dashboard' },
      });
      if (verified.status !== 200) throw new Error(`verify-handoff failed: ${verified.status} ${verified.text}`);
      return verified.body.accessToken;
    },
    internalHeaders(from) {
      return { [SERVICE_TOKEN_HEADER]: anyContext.tokens.signService(from) };
    },
    context(name) {
      const context = process.contexts.get(name);
      if (!context) throw new Error(`${name} does not run in this test service`);
      return context;
    },
    store(name) {
      const store = (service.context(name) as Partial<DataModuleContext>).store;
      if (!store) throw new Error(`${name} owns no data in this test service`);
      return store;
    },
    async close() {
      await process.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}

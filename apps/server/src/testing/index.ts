import { changeAdminRole } from '@crawl/auth';
import { SERVICE_NAMES, type ServiceName } from '@crawl/contracts';
import { startTestService as startModules, type StartTestServiceOptions as ModuleOptions, type TestService, type TestUser } from '@crawl/testkit';
import { modulesFor } from '../all-modules.ts';
import { selectBackends } from '../backends.ts';

export { TEST_PASSWORD, type TestRequest, type TestResponse, type TestService, type TestUser } from '@crawl/testkit';

export interface StartTestServiceOptions extends Omit<ModuleOptions, 'modules'> {
  /** Which services run; default every service but the crawler-worker (jobs then stay queued). */
  targets?: readonly ServiceName[];
}

/**
 * The test harness with the services chosen by name, for tests that run several of them, on the
 * backends the settings select (MONGO_URL / REDIS_URL in `env`), like the binary.
 */
export async function startTestService(options: StartTestServiceOptions = {}): Promise<TestService> {
  const { targets = SERVICE_NAMES.filter((name) => name !== 'crawler-worker'), ...rest } = options;
  return startModules({ backends: selectBackends, ...rest, modules: await modulesFor(targets) });
}

/** An all-in-one crawling the built-in marketplace simulator at full speed, webhooks allowed to loopback (there is no other network in tests). */
export const FAST_SIMULATOR_ENV: Readonly<Record<string, string>> = {
  MARKETPLACE: 'simulator',
  UPSTREAM_RATE_PER_MINUTE: '60000',
  UPSTREAM_BURST: '50',
  CRAWL_CONCURRENCY: '4',
  FETCH_BACKOFF_MS: '20',
  SHUTDOWN_GRACE_MS: '1000',
  WEBHOOK_REQUIRE_HTTPS: 'false',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

export interface ListeningService {
  url: string;
  service: TestService;
  close(): Promise<void>;
}

/** Every service in this process, gateway included, listening on a loopback port (for clients that speak HTTP: SDK, CLI, browser). */
export async function startListeningAllInOne(env: Record<string, string> = {}): Promise<ListeningService> {
  const service = await startTestService({ targets: [...SERVICE_NAMES], env: { ...FAST_SIMULATOR_ENV, ...env } });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { url, service, close: () => service.close() };
}

/**
 * Registers a user, makes it an admin the way `crawl-server admin grant` does (auth's store, so
 * auth must run in the test process) and logs in again: the returned token carries the role.
 */
export async function registerAdmin(svc: TestService, overrides: Parameters<TestService['registerUser']>[0] = {}): Promise<TestUser> {
  const user = await svc.registerUser(overrides);
  if (!(await changeAdminRole(svc.store('auth'), 'grant', user.email))) throw new Error(`registerAdmin: ${user.email} not found in auth's store`);
  const login = await svc.request<{ accessToken: string }>({ method: 'POST', url: '/auth/login', body: { email: user.email, password: user.password } });
  if (login.status !== 200) throw new Error(`registerAdmin: login failed: ${login.status} ${login.text}`);
  return { ...user, token: login.body.accessToken };
}

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

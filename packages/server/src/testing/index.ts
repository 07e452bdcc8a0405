import { SERVICE_NAMES, type ServiceName } from '@crawl/contracts';
import { startTestService as startModules, type StartTestServiceOptions as ModuleOptions, type TestService } from '@crawl/testkit';
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

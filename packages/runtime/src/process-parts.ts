import { systemClock, type Clock } from '@crawl/clock';
import { loadConfig } from '@crawl/config';
import type { ServiceName } from '@crawl/contracts';
import { createLogger, type Logger } from '@crawl/logging';
import { ProcessMetrics } from '@crawl/metrics';
import { InternalTokens } from '@crawl/service-client';
import type { BuildProcessOptions } from './build-process.ts';
import { orderModules } from './module-order.ts';
import { RuntimeConfig } from './runtime-config.ts';
import { resolveSecrets, type Secrets } from './secrets.ts';
import type { AnyServiceModule } from './service-module.ts';

/** What every part of a process shares, settled before anything is opened. */
export interface ProcessParts {
  readonly env: NonNullable<BuildProcessOptions['env']>;
  readonly overrides: BuildProcessOptions['overrides'];
  readonly runtime: RuntimeConfig;
  /** The requested modules in dependency order. */
  readonly modules: readonly AnyServiceModule[];
  readonly targets: ServiceName[];
  readonly logger: Logger;
  readonly metrics: ProcessMetrics;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Signs and verifies service tokens and forwarded identities, with the internal secret. */
  readonly tokens: InternalTokens;
}

/** The settings, the modules in order and what follows from them: logger, metrics, secrets, clock, tokens. */
export function processParts(options: BuildProcessOptions): ProcessParts {
  const env = options.env ?? process.env;
  const runtime = loadConfig(RuntimeConfig, env, options.overrides);
  const modules = orderModules(options.modules);
  const targets = modules.map((m) => m.name);
  const logger = options.logger ?? createLogger(runtime.LOG_LEVEL, targets.length === 1 ? (targets[0] as string) : 'all', { format: runtime.LOG_FORMAT });
  const metrics = options.metrics ?? new ProcessMetrics();
  const secrets = resolveSecrets(runtime, logger);
  const clock = options.clock ?? systemClock;
  const tokens = new InternalTokens(secrets.internalSecret);
  return { env, overrides: options.overrides, runtime, modules, targets, logger, metrics, secrets, clock, tokens };
}

import type { Clock } from '@crawl/clock';
import type { ServiceName } from '@crawl/contracts';
import type { HealthRegistry } from '@crawl/health';
import { createHttpApp, registerProbeRoutes, registerRequestPipeline } from '@crawl/http-kit';
import type { Logger } from '@crawl/logging';
import type { ProcessMetrics } from '@crawl/metrics';
import type { FastifyInstance } from 'fastify';
import { registerAnswerHook } from './answer-hook.ts';
import type { BackendsFactory } from './backends.ts';
import { identityResolverOf, initModules, type InitializedModule } from './init-modules.ts';
import { MetricsServing } from './metrics-serving.ts';
import { openBackends } from './open-backends.ts';
import { processHealth } from './process-health.ts';
import { ProcessLifecycle } from './process-lifecycle.ts';
import { processParts } from './process-parts.ts';
import { registerModuleRoutes, registerRootPlugins } from './register-modules.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { ServiceClients } from './service-clients.ts';
import type { AnyModuleContext, AnyServiceModule, ModuleConfig } from './service-module.ts';

/**
 * Settings given in code, by their environment names; they win over the environment. The
 * runtime's are typed; a module's are checked against its own schema, like its environment.
 */
export type SettingOverrides = Partial<RuntimeConfig> & ModuleConfig;

export interface BuildProcessOptions {
  modules: readonly AnyServiceModule[];
  env?: Record<string, string | undefined>;
  /** Explicit settings win over the environment. */
  overrides?: SettingOverrides;
  clock?: Clock;
  logger?: Logger;
  /** This process's metrics; default a registry of its own. */
  metrics?: ProcessMetrics;
  /** Opens the storage and queue adapters; the composition root decides which. */
  backends: BackendsFactory;
}

export interface CrawlProcess {
  readonly app: FastifyInstance;
  readonly runtime: RuntimeConfig;
  readonly targets: ServiceName[];
  readonly health: HealthRegistry;
  readonly contexts: ReadonlyMap<ServiceName, AnyModuleContext>;
  readonly metrics: ProcessMetrics;
  /** The address of the separate metrics listener (METRICS_PORT), once listening. */
  metricsAddress(): string | undefined;
  /** Starts background work (workers, schedulers). */
  start(): Promise<void>;
  listen(): Promise<string>;
  /** Readiness turns false first, then modules stop in reverse order, then connections close. */
  close(): Promise<void>;
  isReady(): boolean;
}

/**
 * Composes the requested modules into one process: one HTTP server, one set of backends. The
 * order of the steps is the order Fastify sees hooks and routes in: the request pipeline before
 * any route, the root plugins (the gateway's edge) before the probes, the metrics route and the
 * modules' routes.
 */
export async function buildProcess(options: BuildProcessOptions): Promise<CrawlProcess> {
  const parts = processParts(options);
  const backends = await openBackends(options.backends, parts);
  const health = processHealth(backends);
  const app = createHttpApp(parts.runtime, { logger: parts.logger, edge: parts.targets.includes('gateway') });
  registerAnswerHook(app, () => backends.pendingCommits());
  // Access control asks for the gateway's resolver once the app is ready, after every init.
  let modules: readonly InitializedModule[] = [];
  await registerRequestPipeline(app, { metrics: parts.metrics, tokens: parts.tokens, resolver: () => identityResolverOf(modules) });
  const clients = new ServiceClients({ targets: parts.targets, tokens: parts.tokens, runtime: parts.runtime, app });
  const initialized = await initModules({ parts, backends, health, clients, app });
  modules = initialized.modules;
  await registerRootPlugins(app, modules);

  const metricsServing = new MetricsServing(parts.runtime, parts.targets, parts.metrics);
  const { logger, runtime } = parts;
  const lifecycle = new ProcessLifecycle({ modules, logger, graceMs: runtime.SHUTDOWN_GRACE_MS, app, metricsServing, backends, clients, runtime });
  registerProbeRoutes(app, { health, isReady: () => lifecycle.isReady() });
  metricsServing.registerRoute(app);
  await registerModuleRoutes(app, modules, logger);

  return {
    app,
    runtime,
    targets: parts.targets,
    health,
    contexts: initialized.contexts,
    metrics: parts.metrics,
    metricsAddress: () => metricsServing.address(),
    start: () => lifecycle.start(),
    listen: () => lifecycle.listen(),
    isReady: () => lifecycle.isReady(),
    close: () => lifecycle.close(),
  };
}

import { loadConfig } from '@crawl/config';
import type { ServiceName } from '@crawl/contracts';
import { errorHandlerPlugin } from '@crawl/errors';
import { HealthRegistry } from '@crawl/health';
import {
  accessControlPlugin,
  httpMetricsPlugin,
  httpServerOptions,
  listenForMetrics,
  noStorePlugin,
  registerMetricsRoute,
  RequestLog,
  requestContextPlugin,
  servesMetricsOnAppPort,
  validatorCompiler,
  type IdentityResolver,
} from '@crawl/http-kit';
import { createLogger, requestIdFrom, type Logger } from '@crawl/logging';
import { ProcessMetrics } from '@crawl/metrics';
import type { Server } from 'node:http';
import { HttpTransport, InternalTokens, LocalTransport, ServiceClient } from '@crawl/service-client';
import type { DocumentStore } from '@crawl/storage';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { BackendsFactory } from './backends.ts';
import { systemClock, type Clock } from '@crawl/clock';
import { orderModules } from './module-order.ts';
import { contextualQueues } from './queue-context.ts';
import { RuntimeConfig, serviceBaseUrl, serviceUrlSetting } from './runtime-config.ts';
import { resolveSecrets } from './secrets.ts';
import type { AnyModuleContext, AnyServiceModule, ModuleInstance } from './service-module.ts';

/** What an HTTP server gets to finish its answers at shutdown even when the grace period is spent. */
const MIN_HTTP_CLOSE_MS = 1_000;

export interface BuildProcessOptions {
  modules: readonly AnyServiceModule[];
  env?: Record<string, string | undefined>;
  /** Explicit settings win over the environment. */
  overrides?: Record<string, unknown>;
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

/** Composes the requested modules into one process: one HTTP server, one set of backends. */
export async function buildProcess(options: BuildProcessOptions): Promise<CrawlProcess> {
  const env = options.env ?? process.env;
  const runtime = loadConfig(RuntimeConfig, env, options.overrides as Partial<RuntimeConfig>);
  const modules = orderModules(options.modules);
  const targets = modules.map((m) => m.name);
  const logger = options.logger ?? createLogger(runtime.LOG_LEVEL, targets.length === 1 ? (targets[0] as string) : 'all', { format: runtime.LOG_FORMAT });
  const metrics = options.metrics ?? new ProcessMetrics();
  const secrets = resolveSecrets(runtime, logger);
  const clock = options.clock ?? systemClock;
  const tokens = new InternalTokens(secrets.internalSecret);
  const health = new HealthRegistry();
  const backends = await options.backends(runtime, logger);
  // Tasks carry the request id and organization of whoever queued them; each queue's depth is reported.
  const queues = contextualQueues(backends.queues, metrics);
  const httpTransports = new Map<ServiceName, HttpTransport>();
  let ready = false;

  health.register('api', async () => true);

  // Typed as the default instance: plugins and modules need not know the logger's concrete type.
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFrom,
    // One line per request instead of two, and at debug for internal calls.
    logController: new RequestLog(targets.includes('gateway')),
    // Request lines get the request id from the log context (request-context.ts), which every
    // line logged during the request carries: no child logger per request.
    childLoggerFactory: (parent) => parent,
    bodyLimit: runtime.BODY_LIMIT_BYTES,
    trustProxy: runtime.TRUST_PROXY,
    ...httpServerOptions(runtime),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler());

  // Clients send `Content-Type: application/json` on body-less POSTs (retry, cancel, logout).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Every body is JSON: text/plain gets 415 like any other type, not a schema error about a string.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return defaultJson(request, body as string, done);
  });
  const stores: DocumentStore[] = [];
  // A callback hook, done at once unless a commit is pending: it runs on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    // Stores that commit writes in groups (the embedded one): no response leaves the process
    // before the writes it may tell of are committed.
    let commits: Promise<unknown>[] | undefined;
    for (const store of stores) {
      const commit = store.pendingCommit?.();
      if (commit) (commits ??= []).push(commit);
    }
    if (!commits) return done(null, payload);
    Promise.all(commits).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
  await app.register(requestContextPlugin);
  await app.register(httpMetricsPlugin, { metrics });
  await app.register(errorHandlerPlugin);
  await app.register(noStorePlugin);

  const instances: Array<{ module: AnyServiceModule; instance: ModuleInstance }> = [];
  const resolver = (): IdentityResolver | undefined => instances.find((i) => i.instance.identityResolver)?.instance.identityResolver;
  await app.register(accessControlPlugin, { tokens, resolver });

  const clientFor = (from: ServiceName) => (target: ServiceName) => {
    if (targets.includes(target)) return new ServiceClient({ from, target, tokens, transport: new LocalTransport(() => app) });
    const baseUrl = serviceBaseUrl(runtime, target);
    if (!baseUrl) {
      const setting = serviceUrlSetting(target);
      throw new Error(
        `${from} needs the ${target} service: ${setting ? `run it in this process or set ${setting}` : 'run it in this process (it serves no HTTP API)'}`,
      );
    }
    let transport = httpTransports.get(target);
    if (!transport) {
      transport = new HttpTransport({ baseUrl });
      httpTransports.set(target, transport);
    }
    return new ServiceClient({ from, target, tokens, transport });
  };

  for (const [name, check] of Object.entries(backends.health ?? {})) health.register(name, check);

  const contexts = new Map<ServiceName, AnyModuleContext>();
  for (const module of modules) {
    // Only a module that owns data gets a database: no empty files or databases for the others.
    const store = module.ownsData ? backends.openStore(module.name) : undefined;
    if (store) stores.push(store);
    const context: AnyModuleContext & { store?: DocumentStore } = {
      name: module.name,
      runtime,
      config: module.configSchema ? loadConfig(module.configSchema, env, options.overrides as never) : {},
      logger: logger.child({ module: module.name }),
      metrics,
      secrets,
      tokens,
      clock,
      ...(store ? { store } : {}),
      queues,
      health,
      client: clientFor(module.name),
      isLocal: (target) => targets.includes(target),
      app: () => app,
    };
    contexts.set(module.name, context);
    instances.push({ module, instance: await module.init(context) });
  }

  for (const { instance } of instances) if (instance.rootPlugin) await app.register(fp(instance.rootPlugin));

  app.route({
    method: 'GET',
    url: '/health',
    config: { access: 'public', owner: 'gateway' },
    schema: { hide: true } as FastifySchema,
    handler: async (_request, reply) => {
      const report = await health.report();
      return reply.code(report.status === 'ok' ? 200 : 503).send(report);
    },
  });
  // Liveness is the process alone: a database outage must not get healthy pods restarted.
  app.route({
    method: 'GET',
    url: '/live',
    config: { access: 'public' },
    schema: { hide: true } as FastifySchema,
    handler: async () => ({ alive: true }),
  });
  app.route({
    method: 'GET',
    url: '/ready',
    config: { access: 'public' },
    schema: { hide: true } as FastifySchema,
    handler: async (_request, reply) => {
      const report = await health.report();
      const ok = ready && report.status === 'ok';
      return reply.code(ok ? 200 : 503).send({ ready: ok });
    },
  });

  const metricsExposure = { port: runtime.METRICS_PORT, host: runtime.HOST, token: runtime.METRICS_TOKEN, publicPort: targets.includes('gateway') };
  if (servesMetricsOnAppPort(metricsExposure)) registerMetricsRoute(app, metrics, runtime.METRICS_TOKEN);
  let metricsServer: { server: Server; address: string } | undefined;

  for (const { module, instance } of instances) {
    if (instance.routes) await app.register(instance.routes, { prefix: '' });
    logger.debug({ module: module.name }, 'module routes registered');
  }

  let closed = false;
  const start = async () => {
    await app.ready();
    for (const { instance } of instances) await instance.start?.();
    ready = true;
  };
  return {
    app,
    runtime,
    targets,
    health,
    contexts,
    metrics,
    metricsAddress: () => metricsServer?.address,
    start,
    async listen() {
      await start();
      const address = await app.listen({ port: runtime.PORT, host: runtime.HOST });
      const port = metricsExposure.port;
      if (port !== undefined) metricsServer = await listenForMetrics(metrics, { ...metricsExposure, port });
      return address;
    },
    isReady: () => ready,
    async close() {
      if (closed) return;
      closed = true;
      // Readiness first (load balancers stop sending), then workers stop taking work and get the
      // grace period for in-flight jobs (handed back after it), then connections close.
      ready = false;
      const deadline = Date.now() + runtime.SHUTDOWN_GRACE_MS;
      for (const { module, instance } of [...instances].reverse()) {
        try {
          await instance.stop?.();
        } catch (error) {
          logger.error({ err: error, module: module.name }, 'module failed to stop cleanly');
        }
      }
      // A connection still answering at the deadline (a stream a client left half-open, a
      // trickling download) must not hold the process: it is cut then. Never less than a second.
      const cutConnections = setTimeout(() => app.server.closeAllConnections(), Math.max(MIN_HTTP_CLOSE_MS, deadline - Date.now()));
      try {
        await app.close();
      } finally {
        clearTimeout(cutConnections);
      }
      if (metricsServer) await new Promise((resolve) => metricsServer?.server.close(resolve));
      await queues.close(Math.max(0, deadline - Date.now()));
      await Promise.all([...httpTransports.values()].map((t) => t.close()));
      await backends.close();
    },
  };
}

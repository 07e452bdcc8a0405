import { loadConfig } from '@crawl/config';
import type { HealthRegistry } from '@crawl/health';
import type { DocumentStore } from '@crawl/storage';
import type { FastifyInstance } from 'fastify';
import type { OpenBackends } from './open-backends.ts';
import type { ProcessParts } from './process-parts.ts';
import type { ServiceClients } from './service-clients.ts';
import type { AnyModuleContext, AnyServiceModule } from './service-module.ts';

/** What the process hands every module. */
export interface SharedWithModules {
  readonly parts: ProcessParts;
  readonly backends: OpenBackends;
  readonly health: HealthRegistry;
  readonly clients: ServiceClients;
  readonly app: FastifyInstance;
}

/** A module's context: its own settings and logger, the shared parts, and its database when it owns data. */
export function moduleContext(module: AnyServiceModule, shared: SharedWithModules): AnyModuleContext & { store?: DocumentStore } {
  const { parts, backends, health, clients, app } = shared;
  // Only a module that owns data gets a database: no empty files or databases for the others.
  const store = module.ownsData ? backends.openStore(module.name) : undefined;
  return {
    name: module.name,
    runtime: parts.runtime,
    config: module.configSchema ? loadConfig(module.configSchema, parts.env, parts.overrides as never) : {},
    logger: parts.logger.child({ module: module.name }),
    metrics: parts.metrics,
    secrets: parts.secrets,
    tokens: parts.tokens,
    clock: parts.clock,
    ...(store ? { store } : {}),
    queues: backends.queues,
    health,
    client: (target) => clients.client(module.name, target),
    isLocal: (target) => parts.targets.includes(target),
    app: () => app,
  };
}

import type { Clock } from '@crawl/clock';
import type { ServiceName } from '@crawl/contracts';
import type { HealthRegistry } from '@crawl/health';
import type { IdentityResolver } from '@crawl/http-kit';
import type { Logger } from '@crawl/logging';
import type { CrawlMetrics } from '@crawl/metrics';
import type { QueueProvider } from '@crawl/queue';
import type { InternalTokens, ServiceClient } from '@crawl/service-client';
import type { DocumentStore } from '@crawl/storage';
import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { RuntimeConfig } from './runtime-config.ts';
import type { Secrets } from './secrets.ts';

/**
 * A module's settings as the process sees them: read from the environment against the module's
 * own config schema, which only the module knows, so opaque here by design. A module names its
 * own type (`ServiceModule<CatalogConfig>`); this is the default.
 */
export type ModuleConfig = Record<string, unknown>;

/** Everything a module may use; it never reaches for globals. */
export interface ModuleContext<C = ModuleConfig> {
  readonly name: ServiceName;
  readonly runtime: RuntimeConfig;
  /** The module's own settings, validated against its config schema. */
  readonly config: C;
  readonly logger: Logger;
  /** Business metrics (jobs, targets, upstream, parser, credits, webhooks): bounded labels only. */
  readonly metrics: CrawlMetrics;
  readonly secrets: Secrets;
  /** Signs and verifies service-to-service tokens and forwarded identities. */
  readonly tokens: InternalTokens;
  readonly clock: Clock;
  readonly queues: QueueProvider;
  readonly health: HealthRegistry;
  /** A client for another service, in-process or over HTTP depending on the targets. */
  client(target: ServiceName): ServiceClient;
  isLocal(target: ServiceName): boolean;
  /** The process's root app, available once the process is built (for in-process calls). */
  app(): FastifyInstance;
}

/** The context of a module that owns data (`ownsData: true`): its own database comes with it. */
export interface DataModuleContext<C = ModuleConfig> extends ModuleContext<C> {
  /** This service's own database. */
  readonly store: DocumentStore;
}

export interface ModuleInstance {
  /** Registered at the root before any routes, with hooks visible to every route (gateway only). */
  readonly rootPlugin?: FastifyPluginAsync;
  /** The service's routes, in their own encapsulated context. */
  readonly routes?: FastifyPluginAsync;
  /** Provided by the gateway: how a Bearer token becomes an identity. */
  readonly identityResolver?: IdentityResolver;
  /** Background work (workers, schedulers), started after the HTTP server is ready. */
  start?(): Promise<void>;
  /** Stops taking work and finishes or hands back in-flight work; called in reverse order. */
  stop?(): Promise<void>;
}

export interface ServiceModule<C = ModuleConfig> {
  readonly name: ServiceName;
  /** Local modules this one must start after (only among the modules in the same process). */
  readonly dependencies?: readonly ServiceName[];
  readonly configSchema?: TObject;
  /** The module keeps data of its own: the process opens its database (`context.store`). */
  readonly ownsData?: boolean;
  init(context: ModuleContext<C>): Promise<ModuleInstance> | ModuleInstance;
}

/** A module that owns data: its `init` gets `context.store`. */
export interface DataServiceModule<C = ModuleConfig> extends Omit<ServiceModule<C>, 'ownsData' | 'init'> {
  readonly ownsData: true;
  init(context: DataModuleContext<C>): Promise<ModuleInstance> | ModuleInstance;
}

export function defineModule<C>(module: DataServiceModule<C>): ServiceModule<C>;
export function defineModule<C>(module: ServiceModule<C> & { readonly ownsData?: false }): ServiceModule<C>;
export function defineModule<C>(module: ServiceModule<C> | DataServiceModule<C>): ServiceModule<C> {
  // The process passes `store` exactly when `ownsData` is true, which is what the overloads promise.
  return module as ServiceModule<C>;
}

/**
 * A module whatever its config type: a process holds modules of different config types side by
 * side, and each reads only its own config, checked against its own schema at init.
 */
// biome-ignore lint/suspicious/noExplicitAny: an existential config type; `unknown` would not accept ServiceModule<C> for every C.
export type AnyServiceModule = ServiceModule<any>;
/** The context of an AnyServiceModule. */
// biome-ignore lint/suspicious/noExplicitAny: as AnyServiceModule.
export type AnyModuleContext = ModuleContext<any>;

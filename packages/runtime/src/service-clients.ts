import type { ServiceName } from '@crawl/contracts';
import { HttpTransport, LocalTransport, ServiceClient, type InternalTokens } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import { serviceBaseUrl, serviceUrlSetting, type RuntimeConfig } from './runtime-config.ts';

export interface ServiceClientsOptions {
  readonly targets: readonly ServiceName[];
  readonly tokens: InternalTokens;
  readonly runtime: RuntimeConfig;
  /** The process's app, for calls to a service in the process. */
  readonly app: FastifyInstance;
}

/** The clients modules call each other with: in-process when the callee runs here, else over HTTP. */
export class ServiceClients {
  readonly #options: ServiceClientsOptions;
  /** One HTTP transport (one connection pool) per remote service, shared by every caller. */
  readonly #transports = new Map<ServiceName, HttpTransport>();

  constructor(options: ServiceClientsOptions) {
    this.#options = options;
  }

  client(from: ServiceName, target: ServiceName): ServiceClient {
    const { targets, tokens, runtime, app } = this.#options;
    if (targets.includes(target)) return new ServiceClient({ from, target, tokens, transport: new LocalTransport(() => app) });
    const baseUrl = serviceBaseUrl(runtime, target);
    if (!baseUrl) {
      const setting = serviceUrlSetting(target);
      throw new Error(
        `${from} needs the ${target} service: ${setting ? `run it in this process or set ${setting}` : 'run it in this process (it serves no HTTP API)'}`,
      );
    }
    let transport = this.#transports.get(target);
    if (!transport) {
      transport = new HttpTransport({ baseUrl });
      this.#transports.set(target, transport);
    }
    return new ServiceClient({ from, target, tokens, transport });
  }

  async close(): Promise<void> {
    await Promise.all([...this.#transports.values()].map((t) => t.close()));
  }
}

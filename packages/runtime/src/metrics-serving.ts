import type { Server } from 'node:http';
import type { ServiceName } from '@crawl/contracts';
import { listenForMetrics, registerMetricsRoute, servesMetricsOnAppPort, type MetricsExposure } from '@crawl/http-kit';
import type { ProcessMetrics } from '@crawl/metrics';
import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from './runtime-config.ts';

/** Where this process serves `/metrics`: a route on its own port, or a listener of its own (METRICS_PORT). */
export class MetricsServing {
  readonly #metrics: ProcessMetrics;
  readonly #exposure: MetricsExposure;
  #listener: { server: Server; address: string } | undefined;

  constructor(runtime: RuntimeConfig, targets: readonly ServiceName[], metrics: ProcessMetrics) {
    this.#metrics = metrics;
    this.#exposure = { port: runtime.METRICS_PORT, host: runtime.HOST, token: runtime.METRICS_TOKEN, publicPort: targets.includes('gateway') };
  }

  /** The route on the app's port, where metrics are served there. */
  registerRoute(app: FastifyInstance): void {
    if (servesMetricsOnAppPort(this.#exposure)) registerMetricsRoute(app, this.#metrics, this.#exposure.token);
  }

  /** Starts the listener of its own, when METRICS_PORT asks for one. */
  async listen(): Promise<void> {
    const port = this.#exposure.port;
    if (port !== undefined) this.#listener = await listenForMetrics(this.#metrics, { ...this.#exposure, port });
  }

  /** The listener's address, once listening. */
  address(): string | undefined {
    return this.#listener?.address;
  }

  async close(): Promise<void> {
    const listener = this.#listener;
    if (listener) await new Promise((resolve) => listener.server.close(resolve));
  }
}

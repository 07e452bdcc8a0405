import type { RuntimeConfig } from './runtime-config.ts';
import { shutDown, type ShutdownParts } from './shutdown.ts';

export interface LifecycleParts extends ShutdownParts {
  readonly runtime: RuntimeConfig;
}

/** Start, listen, readiness and close of a built process. */
export class ProcessLifecycle {
  readonly #parts: LifecycleParts;
  #ready = false;
  #closed = false;

  constructor(parts: LifecycleParts) {
    this.#parts = parts;
  }

  isReady(): boolean {
    return this.#ready;
  }

  /** Starts background work (workers, schedulers) in module order, once the app is ready; then the process is ready. */
  async start(): Promise<void> {
    await this.#parts.app.ready();
    for (const { instance } of this.#parts.modules) await instance.start?.();
    this.#ready = true;
  }

  async listen(): Promise<string> {
    await this.start();
    const address = await this.#parts.app.listen({ port: this.#parts.runtime.PORT, host: this.#parts.runtime.HOST });
    await this.#parts.metricsServing.listen();
    return address;
  }

  /** Readiness turns false first, then everything closes in order (shutdown.ts); a second call does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready = false;
    await shutDown(this.#parts);
  }
}

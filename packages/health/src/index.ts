import type { HealthResponse, IndicatorStatus } from '@crawl/contracts';

/** A health check resolves when healthy and throws (or returns false) when not. */
export type HealthCheck = () => Promise<boolean | void>;

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck): Promise<IndicatorStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    const result = await Promise.race([check(), timeout]);
    return result === false ? { status: 'down', message: 'check failed' } : { status: 'up' };
  } catch (error) {
    return { status: 'down', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Indicators by name; `/health` reports them in the spec's `{status, info, error, details}` shape. */
export class HealthRegistry {
  readonly #checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.#checks.set(name, check);
  }

  names(): string[] {
    return [...this.#checks.keys()];
  }

  async report(): Promise<HealthResponse> {
    const entries = await Promise.all([...this.#checks].map(async ([name, check]) => [name, await runCheck(check)] as const));
    const info: Record<string, IndicatorStatus> = {};
    const error: Record<string, IndicatorStatus> = {};
    const details: Record<string, IndicatorStatus> = {};
    for (const [name, status] of entries) {
      details[name] = status;
      if (status.status === 'up') info[name] = { status: 'up' };
      else error[name] = status;
    }
    return { status: Object.keys(error).length === 0 ? 'ok' : 'error', info, error, details };
  }
}

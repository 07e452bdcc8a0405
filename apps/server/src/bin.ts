// Tracing, when the OTEL_* environment asks for it, must be in place before fastify, undici,
// ioredis and mongodb are first imported (docs/observability.md, "Tracing"): the process itself
// (main.ts) is imported after it. Without tracing this costs nothing but the check.
import { SERVICE_NAMES } from '@crawl/contracts';
import { defaultServiceName, startTracing } from '@crawl/tracing';
import { parseTargets } from './targets.ts';

const args = process.argv.slice(2);
if (args[0] !== 'admin') await startTracing({ serviceName: serviceNameFor(args) });
await import('./main.ts');

/** `crawl-catalog`, `crawl-data-service` for the all-in-one; none for bad arguments (main.ts reports them). */
function serviceNameFor(argv: string[]): string | undefined {
  try {
    return defaultServiceName(parseTargets(argv, process.env.TARGET), SERVICE_NAMES);
  } catch {
    return undefined;
  }
}

import type { ServiceName } from '@crawl/contracts';
import { defineConfig } from '@crawl/config';
import { Type, type Static } from '@sinclair/typebox';

const OptionalUrl = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

/** Settings every process reads, whatever its targets. Module-specific settings live with each module. */
export const RuntimeConfig = defineConfig({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port of this process (the public port when the gateway runs here).' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'Interface to listen on.' }),
  DATA_DIR: Type.String({ default: './data', description: 'Where the embedded store and generated secrets live.' }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    {
      default: 'info',
      description: 'Pino log level.',
    },
  ),
  LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
    default: 'auto',
    description: 'Log lines as JSON, or readable (pino-pretty); `auto`: readable when stdout is a terminal and NODE_ENV is not production, JSON otherwise.',
  }),
  METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      description:
        'Serve Prometheus `/metrics` on this port of its own (and not on PORT). Unset: on PORT, except where the gateway runs, which needs METRICS_TOKEN for it.',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'When set, `/metrics` answers only requests with `Authorization: Bearer <token>`; it also turns `/metrics` on at the public port.',
    }),
  ),
  MONGO_URL: OptionalUrl('MongoDB connection string. Unset: the embedded store under DATA_DIR.'),
  MONGO_DB_PREFIX: Type.String({ default: 'crawl_', description: 'Each service uses database `<prefix><service>` unless MONGO_DATABASE is set.' }),
  MONGO_DATABASE: Type.Optional(Type.String({ description: 'Put every service in this one database instead.' })),
  MONGO_OPERATION_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 10_000,
    description:
      'Time limit of each MongoDB operation (sent as `maxTimeMS`; an update includes its lock wait on FerretDB). Past it the request answers 503 and the server abandons the operation (FerretDB v1: reads and findAndModify only, see docs/ferretdb.md).',
  }),
  REDIS_URL: OptionalUrl(
    'Redis connection string. Set: BullMQ queues, gateway rate limits and the upstream crawl rate are shared through Redis. Unset: in-process queues and memory rate limits.',
  ),
  REDIS_PREFIX: Type.String({
    minLength: 1,
    pattern: '^[^:]+$',
    default: 'crawl',
    description:
      'Namespace of every Redis key (queues `<prefix>:<queue>:…`, rate limits, upstream rate); processes that should share queues and limits use the same one.',
  }),
  JWT_SECRET: Type.Optional(Type.String({ description: 'HS256 secret for access tokens, at least 32 bytes. Unset: generated once and kept under DATA_DIR.' })),
  INTERNAL_SECRET: Type.Optional(Type.String({ description: 'Secret for service-to-service tokens, at least 32 bytes. Unset: derived from JWT_SECRET.' })),
  GATEWAY_URL: OptionalUrl('Base URL of the gateway, when it runs in another process.'),
  AUTH_URL: OptionalUrl('Base URL of the auth service, when it runs in another process.'),
  CATALOG_URL: OptionalUrl('Base URL of the catalog service, when it runs in another process.'),
  BILLING_URL: OptionalUrl('Base URL of the billing service, when it runs in another process.'),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1_048_576, description: 'Largest accepted request body.' }),
  TRUST_PROXY: Type.Boolean({ default: false, description: 'Trust X-Forwarded-* headers (set behind a load balancer) for client addresses.' }),
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 10_000,
    description: 'Time a client has to send its request headers; past it the connection is answered 408 and closed (slow-header clients).',
  }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 30_000,
    description:
      'Time a client has to send its whole request, headers and body; past it the connection is answered 408 and closed (slow-body clients). At least HTTP_HEADERS_TIMEOUT_MS.',
  }),
  HTTP_IDLE_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 120_000,
    description: 'A connection on which nothing moves for this long, in either direction, is closed.',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 72_000,
    description: "How long an idle keep-alive connection stays open between requests (keep it above a load balancer's idle timeout).",
  }),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 10_000, description: 'How long SIGTERM waits for in-flight work before closing.' }),
});
export type RuntimeConfig = Static<typeof RuntimeConfig>;

/** Where a service that runs in another process is reached; the crawler-worker serves no routes. */
const SERVICE_URL_SETTINGS = {
  gateway: 'GATEWAY_URL',
  auth: 'AUTH_URL',
  catalog: 'CATALOG_URL',
  billing: 'BILLING_URL',
} as const satisfies Partial<Record<ServiceName, keyof RuntimeConfig>>;

export function serviceUrlSetting(service: ServiceName): string | undefined {
  return (SERVICE_URL_SETTINGS as Partial<Record<ServiceName, string>>)[service];
}

export function serviceBaseUrl(runtime: RuntimeConfig, service: ServiceName): string | undefined {
  const setting = (SERVICE_URL_SETTINGS as Partial<Record<ServiceName, keyof RuntimeConfig>>)[service];
  return setting ? (runtime[setting] as string | undefined) : undefined;
}

import { defineModule, serviceBaseUrl, type IdentityResolver } from '@crawl/modules';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { closeRedis, openRedis } from '@crawl/redis';
import type { FastifyInstance } from 'fastify';
import { GatewayConfig, parseOverrides } from './config.ts';
import { forwardRoutes } from './features/forwarding/forward-routes.ts';
import { bearerIdentity } from './features/identity/bearer-identity.ts';
import { registerOpenApi } from './features/openapi/openapi.ts';
import { installRouteThrottles } from './features/throttling/route-throttles.ts';

/**
 * The public edge: verifies bearer tokens, throttles, serves OpenAPI, and forwards routes whose
 * owner runs in another process.
 */
export const gatewayModule = defineModule<GatewayConfig>({
  name: 'gateway',
  configSchema: GatewayConfig,
  init(context) {
    const overrides = parseOverrides(context.config.RATE_LIMIT_OVERRIDES);
    const identityResolver: IdentityResolver = bearerIdentity(context.secrets.jwtSecret);
    return {
      identityResolver,
      async rootPlugin(app: FastifyInstance) {
        await app.register(helmet, { contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } });
        const origins = context.config.CORS_ORIGINS.trim();
        await app.register(cors, {
          origin: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()),
          exposedHeaders: ['x-request-id', 'retry-after', 'content-disposition'],
        });
        // With REDIS_URL the counters live in Redis, so limits hold across gateway replicas. An
        // unreachable Redis lets requests through (logged) rather than failing every request.
        const redisUrl = context.runtime.REDIS_URL;
        if (redisUrl) {
          const redis = openRedis(redisUrl, { name: 'crawl-gateway-rate-limit', commandTimeoutMs: 500 });
          app.addHook('onClose', async () => closeRedis(redis));
          await app.register(rateLimit, {
            global: false,
            redis,
            nameSpace: `${context.runtime.REDIS_PREFIX}:rl:`,
            skipOnError: true,
          });
        } else {
          await app.register(rateLimit, { global: false });
        }
        installRouteThrottles(app, overrides);
        await registerOpenApi(app);
      },
      async routes(app: FastifyInstance) {
        await forwardRoutes(app, {
          tokens: context.tokens,
          isLocal: context.isLocal,
          baseUrlOf: (service) => serviceBaseUrl(context.runtime, service),
        });
      },
    };
  },
});

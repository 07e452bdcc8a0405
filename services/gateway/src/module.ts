import { defineModule, serviceBaseUrl, type IdentityResolver } from '@crawl/modules';
import { GatewayConfig, parseOverrides } from './config.ts';
import { bearerIdentity } from './features/identity/bearer-identity.ts';
import { gatewayEdge, gatewayRoutes } from './plugin.ts';

/**
 * The public edge: verifies bearer tokens, throttles, serves OpenAPI, and forwards routes whose
 * owner runs in another process.
 */
export const gatewayModule = defineModule<GatewayConfig>({
  name: 'gateway',
  configSchema: GatewayConfig,
  init(context) {
    const identityResolver: IdentityResolver = bearerIdentity(context.secrets.jwtSecret);
    return {
      identityResolver,
      rootPlugin: gatewayEdge({
        corsOrigins: context.config.CORS_ORIGINS,
        overrides: parseOverrides(context.config.RATE_LIMIT_OVERRIDES),
        redisUrl: context.runtime.REDIS_URL,
        redisPrefix: context.runtime.REDIS_PREFIX,
      }),
      routes: gatewayRoutes({
        tokens: context.tokens,
        isLocal: context.isLocal,
        baseUrlOf: (service) => serviceBaseUrl(context.runtime, service),
      }),
    };
  },
});

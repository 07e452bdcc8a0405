import type { IdentityResolver } from '@crawl/http-kit';
import { defineModule, serviceBaseUrl, type ServiceModule } from '@crawl/runtime';
import { GatewayConfig, parseOverrides } from './config.ts';
import { bearerIdentity } from './features/identity/index.ts';
import { gatewayEdge, gatewayRoutes } from './plugin.ts';

export interface GatewayModuleOptions {
  /**
   * The dashboard's build directory, served under /app. The composition root passes it (the
   * server: `@crawl/dashboard`'s); without it the gateway serves no dashboard.
   */
  dashboardDist?: string;
}

/**
 * The public edge: verifies bearer tokens, throttles, serves OpenAPI and the dashboard, and
 * forwards routes whose owner runs in another process.
 */
export function createGatewayModule(options: GatewayModuleOptions = {}): ServiceModule<GatewayConfig> {
  return defineModule<GatewayConfig>({
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
          dashboardDist: options.dashboardDist,
        }),
        routes: gatewayRoutes({
          tokens: context.tokens,
          isLocal: context.isLocal,
          baseUrlOf: (service) => serviceBaseUrl(context.runtime, service),
        }),
      };
    },
  });
}

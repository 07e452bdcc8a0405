import cors from '@fastify/cors';
import { PUBLIC_ROUTES } from '@crawl/contracts';
import type { FastifyInstance } from 'fastify';
import { corsMethods, guardPreflights } from './features/cors/index.ts';
import { dashboardRoutes } from './features/dashboard/index.ts';
import { forwardRoutes, type ForwardingOptions } from './features/forwarding/index.ts';
import { mcpRoutes } from './features/mcp/index.ts';
import { openApiRoutes } from './features/openapi/index.ts';
import { installApiHeaders } from './features/security-headers/index.ts';
import { installRouteThrottles, registerRateLimitStore, type RateLimitStoreOptions } from './features/throttling/index.ts';

export interface EdgeOptions extends RateLimitStoreOptions {
  /** `*` or a comma-separated list of allowed origins. */
  corsOrigins: string;
  /** Throttle limits by policy name, replacing the contracts' defaults. */
  overrides: ReadonlyMap<string, number>;
  /** The dashboard's build, served under /app; without it the process serves no dashboard. */
  dashboardDist?: string;
}

/**
 * The gateway's edge, registered at the root before any service's routes so its hooks reach
 * every route: security headers (the API's; Helmet's on the HTML), CORS, per-route throttles, the OpenAPI document, the MCP endpoint (/mcp) and the dashboard (/app).
 */
export function gatewayEdge(options: EdgeOptions) {
  return async function edge(app: FastifyInstance): Promise<void> {
    installApiHeaders(app);
    const origins = options.corsOrigins.trim();
    guardPreflights(app);
    await app.register(cors, {
      origin: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()),
      methods: corsMethods(PUBLIC_ROUTES),
      // One string: the plugin joins a list again on every answer.
      exposedHeaders: 'x-request-id, retry-after, content-disposition',
    });
    await registerRateLimitStore(app, options);
    installRouteThrottles(app, options.overrides);
    await openApiRoutes(app);
    // At the root: its tools call the API through this instance's routes (app.inject).
    await mcpRoutes(app);
    if (options.dashboardDist !== undefined) await dashboardRoutes(app, { dist: options.dashboardDist });
  };
}

/** The gateway's own routes: every public route whose owner runs in another process, forwarded. */
export function gatewayRoutes(options: ForwardingOptions) {
  return async function routes(app: FastifyInstance): Promise<void> {
    await forwardRoutes(app, options);
  };
}

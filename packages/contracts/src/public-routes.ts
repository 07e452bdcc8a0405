import { AuthRoutes, HealthRoutes } from './auth-routes.ts';
import { BillingRoutes } from './billing-routes.ts';
import { CatalogRoutes } from './catalog-routes.ts';
import type { RouteSpec } from './route-spec.ts';
import { WebhookRoutes } from './webhook-routes.ts';

/** Every public route of the service, by owner. The gateway serves exactly this table. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = [HealthRoutes, AuthRoutes, CatalogRoutes, WebhookRoutes, BillingRoutes].flatMap(
  (table: Record<string, RouteSpec>) => Object.values(table),
);

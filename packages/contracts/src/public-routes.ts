import { AuthRoutes, HealthRoutes } from './auth-routes.ts';
import { BillingRoutes } from './billing-routes.ts';
import { CatalogRoutes } from './catalog-routes.ts';
import { DestinationRoutes } from './destination-routes.ts';
import { MonitorRoutes } from './monitor-routes.ts';
import { HistoryRoutes } from './history-routes.ts';
import type { RouteSpec } from './route-spec.ts';
import { TargetListRoutes } from './target-lists.ts';
import { WebhookRoutes } from './webhook-routes.ts';

/** A public route and its name in the route tables, which is its OpenAPI `operationId`. */
export interface PublicOperation {
  readonly operationId: string;
  readonly spec: RouteSpec;
}

/** Every public route of the service, named; the names are unique across the tables (contracts test). */
export const PUBLIC_OPERATIONS: readonly PublicOperation[] = [
  HealthRoutes,
  AuthRoutes,
  CatalogRoutes,
  HistoryRoutes,
  WebhookRoutes,
  MonitorRoutes,
  DestinationRoutes,
  TargetListRoutes,
  BillingRoutes,
].flatMap((table: Record<string, RouteSpec>) => Object.entries(table).map(([operationId, spec]) => ({ operationId, spec })));

/** Every public route of the service, by owner. The gateway serves exactly this table. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = PUBLIC_OPERATIONS.map((operation) => operation.spec);

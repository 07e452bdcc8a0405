import { AuthRoutes, HealthRoutes } from './auth-routes.ts';
import type { RouteSpec } from './route-spec.ts';

/** Every public route of the service, by owner. The gateway serves exactly this table. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = [...Object.values(HealthRoutes), ...Object.values(AuthRoutes)];

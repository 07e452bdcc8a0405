import { BillingInternalRoutes, CatalogInternalRoutes, type InternalRouteSpec } from '@crawl/contracts';
import type { JsonSchema, Operation, OperationParameter } from './openapi-operations.ts';

/**
 * The service-to-service routes, which `/openapi.json` leaves out, as operations: the all-in-one
 * serves them on its public port, so a client without the internal token must be refused there
 * (never a 2xx), whatever it sends.
 */
export function internalOperations(): Operation[] {
  const routes: InternalRouteSpec[] = [...Object.values(BillingInternalRoutes), ...Object.values(CatalogInternalRoutes)];
  return routes.map((route) => {
    const params = (route.schema.params ?? { properties: {} }) as JsonSchema;
    const query = (route.schema.querystring ?? { properties: {} }) as JsonSchema;
    const parameters = (schema: JsonSchema, where: 'path' | 'query'): OperationParameter[] =>
      Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({
        name,
        in: where,
        required: where === 'path',
        schema: property,
      }));
    return {
      method: route.method,
      path: route.url.replace(/:([A-Za-z]+)/g, '{$1}'),
      pathParameters: parameters(params, 'path'),
      queryParameters: parameters(query, 'query'),
      ...(route.schema.body ? { body: route.schema.body as JsonSchema } : {}),
      secured: true,
    };
  });
}

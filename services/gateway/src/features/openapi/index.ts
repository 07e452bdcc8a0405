/** The OpenAPI document of the public routes (/openapi.json) and its explorer (/docs). */
export { openApiRoutes } from './openapi-routes.ts';

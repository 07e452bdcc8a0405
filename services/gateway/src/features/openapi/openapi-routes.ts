import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { HTML_PREFIX } from '../security-headers/api-headers.ts';

/**
 * OpenAPI from the routes' TypeBox schemas. Internal routes (declared `internal`, or declaring
 * nothing) stay out of the document.
 */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Crawl Data Service API',
        version: '1.0.0',
        description: 'Crawl an online retail marketplace: keyword searches and product details, as JSON, CSV exports and webhooks, paid in credits.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => {
      const access = route.config?.access;
      const hidden = !access || access === 'internal' || url.startsWith('/internal');
      const secured = access === 'user' || access === 'admin' || access === 'dashboard';
      const transformed = { ...(schema as object), ...(hidden ? { hide: true } : {}), ...(secured ? { security: [{ bearerAuth: [] }] } : {}) };
      return { schema: transformed as typeof schema, url };
    },
  });
  // The explorer is HTML a browser renders: Helmet's whole policy, in this context only (the API's
  // JSON answers carry the API's headers, security-headers/api-headers.ts).
  await app.register(async function explorer(docs) {
    await docs.register(helmet, { contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } });
    await docs.register(swaggerUi, { routePrefix: HTML_PREFIX, staticCSP: false });
  });
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } as object }, async () => app.swagger());
}

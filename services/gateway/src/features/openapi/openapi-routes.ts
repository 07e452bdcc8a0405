import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { HTML_PREFIX } from '../security-headers/index.ts';
import { errorEnvelopeComponent } from './error-responses.ts';
import { mergeConstantUnions } from './merge-constant-unions.ts';
import { sharedComponents } from './shared-components.ts';
import { documentRoute } from './route-documentation.ts';

/**
 * OpenAPI from the routes' TypeBox schemas, meant for client generators: every operation named
 * after its route table key, schemas named after their TypeBox `$id`, the error envelope one
 * shared component. Only the public route tables are listed (internal routes never).
 */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Crawl Data Service API',
        version: '1.0.0',
        description:
          'Crawl an online retail marketplace: keyword searches and product details, as JSON, CSV exports and webhooks, paid in credits. Every error answers with the ErrorEnvelope; the rules are in docs/api.md.',
        // No open-source licence covers this API or its code.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // Relative: the document describes whichever host served it.
      servers: [{ url: '/', description: 'The server this document was fetched from' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: { ErrorEnvelope: errorEnvelopeComponent(), ...sharedComponents() },
      },
    },
    // A schema with an `$id` (Job, Project, Schedule…) becomes the component of that name.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === 'string' && /^[A-Za-z0-9_.-]+$/.test(json.$id) ? json.$id : `def-${index}`,
    },
    transform: ({ schema, url, route }) => {
      const documented = documentRoute(route.method, url, schema as object);
      const transformed = documented.hidden ? { ...(schema as object), hide: true } : documented.schema;
      return { schema: transformed as typeof schema, url };
    },
    transformObject: (document) => ('openapiObject' in document ? mergeConstantUnions(document.openapiObject) : document.swaggerObject),
  });
  // The explorer is HTML a browser renders: Helmet's whole policy, in this context only (the API's
  // JSON answers carry the API's headers, security-headers/api-headers.ts).
  await app.register(async function explorer(docs) {
    await docs.register(helmet, { contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } });
    await docs.register(swaggerUi, { routePrefix: HTML_PREFIX, staticCSP: false });
  });
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } as object }, async () => app.swagger());
}

import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import { errors } from '@crawl/errors';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DASHBOARD_HEADERS, IMMUTABLE, REVALIDATE } from './dashboard-headers.ts';

export const DASHBOARD_PREFIX = '/app';

const ROUTE = { config: { access: 'public' as const }, schema: { hide: true } as object };

/**
 * The single-page dashboard under /app, same origin as the API. /app/assets/* are the built files
 * (content-hashed, immutable); any other path under /app is a page of the app and answers
 * index.html, revalidated on every load so a new build is picked up at once. `dist` is the
 * dashboard's build directory, which the composition root passes in: the gateway does not know
 * where the dashboard lives.
 */
export async function dashboardRoutes(app: FastifyInstance, options: { dist: string }): Promise<void> {
  // A context of its own: @fastify/static decorates the reply, as the API explorer's copy does in its context.
  await app.register(async function dashboard(scope) {
    await serveDashboard(scope, options.dist);
  });
}

async function serveDashboard(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, { root, serve: false });

  const sendIndex = (reply: FastifyReply) => {
    if (!existsSync(`${root}/index.html`)) {
      throw errors.unavailable('The dashboard is not built: run `pnpm install` (or `pnpm --filter @crawl/dashboard build`)', 60);
    }
    return reply.headers({ ...DASHBOARD_HEADERS, 'cache-control': REVALIDATE }).sendFile('index.html', { cacheControl: false });
  };

  app.get(DASHBOARD_PREFIX, ROUTE, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${DASHBOARD_PREFIX}/${query}`, 302);
  });
  app.get(`${DASHBOARD_PREFIX}/`, ROUTE, async (_request, reply) => sendIndex(reply));
  app.get(`${DASHBOARD_PREFIX}/*`, ROUTE, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (path.startsWith('assets/')) {
      if (path.includes('..') || !existsSync(`${root}/${path}`)) throw errors.notFound('Asset');
      return reply.headers({ ...DASHBOARD_HEADERS, 'cache-control': IMMUTABLE }).sendFile(path, { cacheControl: false });
    }
    return sendIndex(reply);
  });
}

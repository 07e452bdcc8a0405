import type { ProcessMetrics } from '@crawl/metrics';
import { statusClass } from '@crawl/metrics';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';

type Child = ReturnType<ProcessMetrics['httpDuration']['labels']>;

/**
 * Times every answer into `crawl_http_request_duration_seconds` by route template (`/jobs/:id`,
 * never the URL), method and status class. Each route gets its own hook holding its labelled
 * series, found by method and status class: an answer costs one array lookup and the observe.
 * Paths no route matches are one series, `route="unmatched"`.
 */
export const httpMetricsPlugin = fp<{ metrics: ProcessMetrics }>(
  async function httpMetrics(app: FastifyInstance, { metrics }) {
    const histogram = metrics.httpDuration;
    app.addHook('onRoute', (route) => {
      const observe = routeObserver(histogram, route.url);
      const existing = route.onResponse ? (Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse]) : [];
      route.onResponse = [...existing, observe];
    });
    const unmatched = routeObserver(histogram, 'unmatched');
    app.addHook('onResponse', function observeUnmatched(request, reply, done) {
      if (request.is404) return unmatched.call(this, request, reply, done);
      done();
    });
  },
  { name: 'crawl-http-metrics' },
);

function routeObserver(histogram: ProcessMetrics['httpDuration'], route: string): onResponseHookHandler {
  const byMethod = new Map<string, Array<Child | undefined>>();
  return function observeRequest(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    let children = byMethod.get(request.method);
    if (!children) {
      children = [];
      byMethod.set(request.method, children);
    }
    const index = Math.floor(reply.statusCode / 100);
    let child = children[index];
    if (!child) {
      child = histogram.labels({ route, method: request.method, status_class: statusClass(reply.statusCode) });
      children[index] = child;
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  };
}

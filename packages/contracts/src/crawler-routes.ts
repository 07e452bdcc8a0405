import { defineRoutes } from './route-spec.ts';

/** Public routes owned by crawler-worker (admin crawler controls). */
export const CrawlerRoutes = defineRoutes({});

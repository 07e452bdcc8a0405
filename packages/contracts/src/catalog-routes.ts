import { defineRoutes } from './route-spec.ts';

/** Public routes owned by catalog (projects, jobs, results, exports, schedules, audit). */
export const CatalogRoutes = defineRoutes({});

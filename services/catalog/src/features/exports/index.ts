/** Exports: a finished job's results as a JSON or CSV file, counted against the organization's exports. */
export { exportRoutes } from './export-routes.ts';
export { exportJobResults, JobExports } from './export-service.ts';

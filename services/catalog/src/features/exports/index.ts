/** Exports: a finished job's results as a JSON or CSV file, counted against the organization's exports. */
export { exportRoutes } from './export-routes.ts';
export { exportJobResults, JobExports } from './export-service.ts';
/** CSV cells as exports write them (formula-safe), for other features that write CSV files. */
export { csvCell, csvLine, protectCell } from './export-stream.ts';

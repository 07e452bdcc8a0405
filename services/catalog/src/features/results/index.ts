/** A job's result set: rows by position, pages and cursors, the CSV columns its items have. */
export { addColumns, columnsOfItems, flattenItem, type FlatItem, MAX_CSV_COLUMNS, MAX_SEEN_COLUMNS, unionColumns } from './item-columns.ts';
export { ResultRepository, type ResultDoc } from './result-repository.ts';
export { resultRoutes, type OwnedJobs } from './result-routes.ts';
export { ResultStore, type ResultJob, type ResultPage } from './result-store.ts';

/** History: observations of products and keywords' ranks kept as change points, and the routes that read them. */
export { HistoryRecorder } from './history-recorder.ts';
export { historyRoutes } from './history-routes.ts';
export { HistoryService } from './history-service.ts';
export { OBSERVATIONS_COLLECTION, ObservationRepository, type ObservationDoc } from './observation-repository.ts';
export { subjectIdOf } from './observed-subjects.ts';

/** Live job events: a job's progress as Server-Sent Events, following the announcements of job changes. */
export { jobEventRoutes } from './job-event-routes.ts';
export type { JobMonitorEvent } from './event-frames.ts';
export { JobEventService } from './job-event-service.ts';

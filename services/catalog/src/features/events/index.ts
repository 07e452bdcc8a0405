/** Catalog's outbox: job-finished and schedule-failed events, written once each and announced in-process. */
export { JobEvents, type AnyOutboxDoc, type JobFinishedListener, type OutboxDoc, type ScheduleFailedEvent } from './event-service.ts';
export { OutboxRepository } from './outbox-repository.ts';

/** Catalog's outbox: job-finished and schedule-failed events, written once each and announced in-process. */
export { OutboxEvents, type AnyOutboxDoc, type JobFinishedListener, type OutboxDoc, type ScheduleFailedEvent } from './outbox-events.ts';
export { OutboxRepository } from './outbox-repository.ts';

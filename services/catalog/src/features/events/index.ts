/** Catalog's outbox: job-finished, schedule-failed and monitor events, written once each and announced in-process. */
export {
  OutboxEvents,
  type AnyOutboxDoc,
  type JobFinishedListener,
  type MonitorPausedEvent,
  type OutboxDoc,
  type ScheduleFailedEvent,
} from './outbox-events.ts';
export { OutboxRepository } from './outbox-repository.ts';

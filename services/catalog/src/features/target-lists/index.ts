/**
 * Target lists: uploads of up to 100,000 targets, read as a stream, checked with a job's target
 * rules and stored in pages; jobs, schedules and monitors may name one instead of their targets.
 */
export { takeIn, UploadTooLargeError, type IntakeResult, type UploadFormat } from './list-intake.ts';
export { splitLines } from './line-splitter.ts';
export { TargetListRepository } from './target-list-repository.ts';
export { targetListRoutes } from './target-list-routes.ts';
export { TargetListService } from './target-list-service.ts';

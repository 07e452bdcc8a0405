export * from './work-queue.ts';
export * from './in-process-queue.ts';

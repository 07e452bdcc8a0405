export * from './in-process-queue.ts';

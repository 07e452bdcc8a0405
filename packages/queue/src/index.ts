export * from './work-queue.ts';

export * from './work-queue.ts';
export * from './in-process-queue.ts';
export { BullMqQueue, BullMqQueueProvider, type BullMqOptions } from './bullmq-queue.ts';

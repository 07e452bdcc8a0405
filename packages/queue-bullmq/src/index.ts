export type { BullMqOptions } from './bullmq-options.ts';
export { BullMqQueue } from './bullmq-queue.ts';
export { BullMqQueueProvider } from './bullmq-queue-provider.ts';

export type { Logger } from 'pino';
export * from './log-context.ts';
export * from './logger.ts';
export * from './request-id.ts';

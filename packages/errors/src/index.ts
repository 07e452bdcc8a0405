export * from './app-error.ts';
export * from './catalogue.ts';
export * from './error-handler.ts';
export * from './validation-messages.ts';

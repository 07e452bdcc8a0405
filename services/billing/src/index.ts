export { billingModule } from './module.ts';
export { BillingConfig } from './config.ts';

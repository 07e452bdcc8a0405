export { gatewayModule } from './module.ts';
export { GatewayConfig } from './config.ts';

export { createGatewayModule, type GatewayModuleOptions } from './module.ts';
export { GatewayConfig } from './config.ts';

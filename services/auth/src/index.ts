export { authModule } from './module.ts';
export { AuthConfig } from './config.ts';

export { main } from './main.ts';
export type { CliIo } from './cli-io.ts';
export { credentialsPath, type StoredCredentials } from './config/credentials-store.ts';

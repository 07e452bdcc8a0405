import { fileURLToPath } from 'node:url';

/**
 * Where the dashboard's build lands (`vite build`: the root postinstall and turbo's `build` task):
 * the folder the gateway serves under /app. The server hands it to the gateway, so this package
 * is the only one that knows where its build lives.
 */
export const DASHBOARD_DIST = fileURLToPath(new URL('../dist/', import.meta.url));

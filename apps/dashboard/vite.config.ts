import { defineConfig } from 'vite';
import { DASHBOARD_DIST } from './src/dist-dir.ts';

/**
 * The dashboard is served by the gateway under /app (services/gateway/src/features/dashboard), so
 * every asset URL starts there. Assets get content hashes in their names (cached for a year);
 * index.html does not (revalidated on every load). `pnpm dev` proxies the API to a running
 * `pnpm start` on port 3000, so the dashboard and the API keep one origin as in production.
 */
const API_PREFIXES = [
  '/auth',
  '/projects',
  '/jobs',
  '/schedules',
  '/webhooks',
  '/products',
  '/keywords',
  '/monitors',
  '/audit',
  '/usage',
  '/private',
  '/referral',
  '/admin',
  '/health',
];

export default defineConfig({
  base: '/app/',
  root: import.meta.dirname,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: DASHBOARD_DIST,
    emptyOutDir: true,
    // Everything is same-origin files: no inline script or style in index.html (the CSP forbids them).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false }])),
  },
});

/** The dashboard's build served under /app, with its own headers (CSP, caching). */
export { dashboardRoutes } from './dashboard-routes.ts';

export { adminRoutes as crawlerRoutes } from './features/admin/admin-routes.ts';

/** The reconciler: finishes or releases what interrupted requests left behind. */
export { reconcilerRoutes } from './reconciler-routes.ts';
export { Reconciler, type JobStateLookup } from './reconciler-service.ts';

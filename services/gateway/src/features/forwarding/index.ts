/** Forwarding: every public route whose owner runs in another process, sent on with a signed identity. */
export { forwardRoutes, type ForwardingOptions } from './forward-routes.ts';

/** CORS: the methods a browser may use across origins, and the refusal of an OPTIONS request that is no preflight. */
export { corsMethods } from './allowed-methods.ts';
export { guardPreflights } from './preflight-guard.ts';

/** The caller's identity from a bearer token (access or dashboard), verified once per token. */
export { bearerIdentity } from './bearer-identity.ts';

/** Tokens: signing access, dashboard and handoff tokens, and reading a handoff token back. */
export { TokenIssuer, type HandoffClaims, type TokenSubject } from './token-issuer.ts';

/** What several billing features share; it imports no feature. */
export { backOff } from './back-off.ts';

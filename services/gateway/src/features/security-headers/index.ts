/** The API's security headers on every answer, and the prefix of the HTML pages that get Helmet's policy instead. */
export { HTML_PREFIX, installApiHeaders } from './api-headers.ts';

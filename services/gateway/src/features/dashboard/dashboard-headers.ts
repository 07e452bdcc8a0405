/**
 * The dashboard's page policy: scripts, styles, fonts and fetches from this origin only (no inline
 * script or style element, no CDN), nothing may frame it, and no referrer leaves it. Images may be
 * data: URLs (the favicon). The API's own headers (HSTS, nosniff, X-Frame-Options) still apply.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Hashed file names never change content: cached for a year. index.html is asked again every time. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

import type { RouteSpec } from '@crawl/contracts';

/**
 * The methods a browser may use across origins: every method of the public route table (HEAD
 * with GET, which answers it), so a route added with a new method is allowed with it.
 */
export function corsMethods(routes: readonly RouteSpec[]): string[] {
  const methods = new Set(routes.map((route) => route.method as string));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

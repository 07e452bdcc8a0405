/**
 * `derive` run once per claims object. fast-jwt's verifier cache hands back the same claims object
 * on every hit of a token, so what a request reads from a token (its identity) is worked out once
 * per token, not once per request.
 */
export function oncePerClaims<C extends object, R>(derive: (claims: C) => R): (claims: C) => R {
  const derived = new WeakMap<C, R>();
  return (claims) => {
    if (derived.has(claims)) return derived.get(claims) as R;
    const result = derive(claims);
    derived.set(claims, result);
    return result;
  };
}

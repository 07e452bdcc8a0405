import fc from 'fast-check';

/** Query and update operators as a client would smuggle them into a document store through JSON. */
const OPERATOR_OBJECTS: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $ne: 'x' },
  { $in: [] },
  { $nin: [''] },
  { $regex: '.*' },
  { $exists: true },
  { $where: 'sleep(1000) || true' },
  { $expr: { $eq: [1, 1] } },
  { $or: [{}, { a: 1 }] },
  { $set: { organizationId: 'org_x' } },
  { 'a.b': 1, $inc: { available: 1000 } },
  { $function: { body: 'function(){return true}', args: [], lang: 'js' } },
];

/** Keys that reach prototypes or identities when code spreads a body into an object. */
const PROTOTYPE_OBJECTS: unknown[] = [
  JSON.parse('{"__proto__":{"isAdmin":true,"role":"admin"}}'),
  { constructor: { prototype: { isAdmin: true } } },
  { prototype: null },
  { toString: 'x', valueOf: 1, hasOwnProperty: 'y' },
];

/** Strings that are meaningful somewhere: paths, encodings, markup, SQL, formulas, numbers in disguise. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  '\ud800',
  '\uffff',
  '\u202e',
  '🧨',
  '../../../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '%',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '"; DROP TABLE jobs; --',
  '=HYPERLINK("http://x.invalid")',
  '@SUM(1+1)',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'null',
  'true',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  '9007199254740993',
  '2026-02-30T25:61:61Z',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'javascript:alert(1)',
];

const NUMBERS = [0, -1, -0, 0.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e-320];

/** Nested arrays or objects `depth` deep, the shape a recursive validator or walker must survive. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Any JSON value of the wrong shape for wherever it is put. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...OPERATOR_OBJECTS) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_OBJECTS) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'x'.repeat(length)) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...NASTY_STRINGS), { minLength: 50, maxLength: 2_000 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 20, max: 3_000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>)
      .map(([d, k]) => nested(d, k)),
  },
);

/** What a hostile value looks like in a query string or a path segment. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  hostileValue.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'))).filter((text) => text.length < 4_000),
  fc.constantFrom(...NUMBERS.map(String)),
);

/** Fields no client may set: identities, money, state, timestamps. */
export const MASS_ASSIGNMENT_KEYS = [
  'organizationId',
  'userId',
  'ownerUserId',
  'role',
  'roles',
  'isAdmin',
  'admin',
  'id',
  '_id',
  'status',
  'credits',
  'available',
  'balance',
  'createdAt',
  'secret',
  'resultCount',
  '$where',
  '__proto__',
];

/** `encodeURIComponent` for any string: a lone surrogate (which it refuses) becomes U+FFFD, as UTF-8 would have it. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'));
}

import fc from 'fast-check';
import { hostileText, hostileValue, MASS_ASSIGNMENT_KEYS, percentEncode } from './hostile-values.ts';
import { type JsonSchema, type Operation, type ResourceKind, resourceKindOf } from './openapi-operations.ts';
import { type PropertyHints, validValue } from './schema-values.ts';

export type Tenant = 'a' | 'b';
export type Caller = Tenant | 'admin' | 'anonymous' | 'malformed';

/** A path value: a real id from a tenant's pool (picked when sent, so ids created meanwhile count), or text. */
export type PathValue = { tenant: Tenant; kind: ResourceKind; pick: number } | { text: string };

export type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  /** A JSON body of about `bytes` bytes, built when sent. */
  | { kind: 'large'; bytes: number };

/** One generated request, before the live ids and tokens are filled in. */
export interface RequestPlan {
  operation: Operation;
  method: string;
  caller: Caller;
  /** The caller's dashboard token instead of its API token. */
  dashboardToken: boolean;
  malformedAuthorization: string;
  pathValues: Record<string, PathValue>;
  query: [string, string][];
  /** Appended to the query string as is (bad percent-encoding and the like). */
  rawQuery: string;
  body: BodyPlan;
  contentType: string | undefined;
  /** Headers a client should not be able to use: spoofed internal identity, forwarded-for, odd ids and Accepts. */
  extraHeaders: Record<string, string>;
  /** Replaces the operation's path altogether (a route that does not exist). */
  unknownPath: string | undefined;
}

/** The body limit the server runs with (BODY_LIMIT_BYTES default). */
export const BODY_LIMIT_BYTES = 1_048_576;

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Methods Node's parser knows but no route uses, and one it does not know (a 400 from the parser). */
const ODD_METHODS = ['PROPFIND', 'PURGE', 'MKCOL', 'SEARCH', 'LINK', 'REPORT', 'LOCK', 'BREW'];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json-patch+json',
  'application/octet-stream',
  ';;;',
  '',
];

const MALFORMED_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ1c3JfeCIsIm9yZyI6Im9yZ194Iiwicm9sZSI6ImFkbWluIn0.',
  'Basic Zm9vOmJhcg==',
  'bearer lowercase-scheme',
  `Bearer ${'A'.repeat(5_000)}`,
];

const EXTRA_HEADERS: Record<string, string>[] = [
  { 'x-internal-token': 'forged.internal.token' },
  { 'x-crawl-identity': '{"userId":"usr_x","organizationId":"org_x","role":"admin"}' },
  { 'x-forwarded-for': '127.0.0.1' },
  { 'x-request-id': `../${'r'.repeat(300)}` },
  { 'x-request-id': '{"$gt":""}' },
  { accept: 'text/csv' },
  { accept: 'application/xml;q=0.9, */*;q=0.1' },
  { 'accept-encoding': 'gzip, br, zstd' },
  { origin: 'https://evil.example.invalid' },
];

const INVALID_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1}}', "{'a':1}", '\ufeff{}', '{"a":1,}', 'NaN', '"unterminated', '{"a":"\\x"}', ''];

/** Ids in the right shape that nobody owns, and path text no id has. */
const FOREIGN_PATH_TEXT = [
  'prj_doesnotexist000000',
  'job_doesnotexist000000',
  'org_doesnotexist',
  '..',
  '.',
  '%2e%2e',
  '%ZZ',
  '%00',
  'a'.repeat(65),
  'a'.repeat(101),
];

function pathValueArbitrary(operation: Operation, name: string): fc.Arbitrary<PathValue> {
  const kind = resourceKindOf(operation.path, name);
  const tenant = fc.constantFrom<Tenant>('a', 'b');
  const pick = fc.nat({ max: 1_000 });
  const own = kind ? [{ weight: 8, arbitrary: fc.record({ tenant, kind: fc.constant(kind), pick }) }] : [];
  const kinds: ResourceKind[] = ['project', 'job', 'schedule', 'webhook', 'delivery', 'monitor', 'organization'];
  return fc.oneof(
    ...own,
    { weight: 1, arbitrary: fc.record({ tenant, kind: fc.constantFrom(...kinds), pick }) },
    { weight: 1, arbitrary: fc.record({ text: fc.constantFrom(...FOREIGN_PATH_TEXT) }) },
    { weight: 1, arbitrary: fc.record({ text: hostileText.map((text) => percentEncode(text).slice(0, 300)) }) },
  );
}

function queryArbitrary(operation: Operation, hints: PropertyHints): fc.Arbitrary<[string, string][]> {
  const perParameter = operation.queryParameters.map((parameter) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
      { weight: 4, arbitrary: validValue(parameter.schema, hints).map((value) => [[parameter.name, String(value)]] as [string, string][]) },
      { weight: 2, arbitrary: hostileText.map((text) => [[parameter.name, text]] as [string, string][]) },
      {
        weight: 1,
        arbitrary: fc.tuple(hostileText, hostileText).map(
          ([x, y]) =>
            [
              [parameter.name, x],
              [parameter.name, y],
            ] as [string, string][],
        ),
      },
      { weight: 1, arbitrary: hostileText.map((text) => [[`${parameter.name}[$gt]`, text]] as [string, string][]) },
    ),
  );
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('organizationId', 'where', '$where', 'filter', '__proto__', 'sort'), hostileText).map((p) => [p]) },
  );
  return fc.tuple(...perParameter, extra).map((parts) => parts.flat());
}

function bodyArbitrary(schema: JsonSchema | undefined, hints: PropertyHints): fc.Arbitrary<BodyPlan> {
  const raw = fc.oneof(fc.constantFrom(...INVALID_JSON), hostileText).map((text): BodyPlan => ({ kind: 'raw', text }));
  const large = fc.oneof(fc.integer({ min: BODY_LIMIT_BYTES + 1, max: BODY_LIMIT_BYTES * 3 }), fc.integer({ min: 100_000, max: BODY_LIMIT_BYTES - 100 }));
  const junk = hostileValue.map((value): BodyPlan => ({ kind: 'json', value }));
  if (!schema) {
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant<BodyPlan>({ kind: 'none' }) },
      { weight: 1, arbitrary: junk },
      { weight: 1, arbitrary: raw },
      { weight: 1, arbitrary: large.map((bytes): BodyPlan => ({ kind: 'large', bytes })) },
    );
  }
  const valid = validValue(schema, hints) as fc.Arbitrary<Record<string, unknown>>;
  const properties = Object.keys((schema.properties ?? {}) as object);
  const required = (schema.required ?? []) as string[];
  const json = (value: unknown): BodyPlan => ({ kind: 'json', value });
  const variants: fc.WeightedArbitrary<BodyPlan>[] = [
    { weight: 6, arbitrary: valid.map(json) },
    { weight: 1, arbitrary: valid.map((value) => json({ ...value, ...UNDECLARED_KEYS })) },
    { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...MASS_ASSIGNMENT_KEYS), hostileValue).map(([v, key, value]) => json(withKey(v, key, value))) },
    { weight: 2, arbitrary: junk },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: large.map((bytes): BodyPlan => ({ kind: 'large', bytes })) },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: 'none' }) },
  ];
  if (properties.length > 0) {
    variants.push({
      weight: 4,
      arbitrary: fc.tuple(valid, fc.constantFrom(...properties), hostileValue).map(([v, key, value]) => json(withKey(v, key, value))),
    });
  }
  if (required.length > 0) {
    variants.push({ weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...required)).map(([v, key]) => json(without(v, key))) });
  }
  return fc.oneof(...variants);
}

/** Keys no schema declares (a body that is right but says too much). */
const UNDECLARED_KEYS = { unexpected: true, nested: { deeper: [1, 2, 3] } };

/** Sets `key` even when it is `__proto__` (as JSON.parse would, not as assignment does). */
function withKey(value: Record<string, unknown>, key: string, extra: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: extra, enumerable: true, configurable: true, writable: true });
  return copy;
}

function without(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

function callerArbitrary(operation: Operation): fc.Arbitrary<Caller> {
  return fc.oneof(
    { weight: operation.secured ? 8 : 4, arbitrary: fc.constantFrom<Caller>('a', 'b') },
    { weight: operation.path.startsWith('/admin') ? 6 : 1, arbitrary: fc.constant<Caller>('admin') },
    { weight: 1, arbitrary: fc.constant<Caller>('anonymous') },
    { weight: 1, arbitrary: fc.constant<Caller>('malformed') },
  );
}

function methodArbitrary(operation: Operation): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 17, arbitrary: fc.constant(operation.method) },
    { weight: 2, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
  );
}

const unknownPath = fc.oneof(
  fc.constantFrom('/nope', '/projects/x/y/z', '/jobs', '/jobs/', '//projects', '/projects/%ZZ', '/.env', '/admin', '/internal', '/docs/../openapi.json'),
  fc
    .array(
      hostileText.map((text) => percentEncode(text).slice(0, 100)),
      { minLength: 1, maxLength: 4 },
    )
    .map((segments) => `/${segments.join('/')}`),
);

/** Requests for one operation of the document: mostly its own shape, each part sometimes wrong. */
export function planArbitrary(operation: Operation, hints: PropertyHints): fc.Arbitrary<RequestPlan> {
  const pathValues = fc.record(Object.fromEntries(operation.pathParameters.map((p) => [p.name, pathValueArbitrary(operation, p.name)])));
  return fc.record({
    operation: fc.constant(operation),
    method: methodArbitrary(operation),
    caller: callerArbitrary(operation),
    dashboardToken: operation.path.startsWith('/private') ? fc.constantFrom(true, true, true, false) : fc.constantFrom(false, false, true),
    malformedAuthorization: fc.constantFrom(...MALFORMED_AUTHORIZATION),
    pathValues,
    query: queryArbitrary(operation, hints),
    rawQuery: fc.oneof(
      { weight: 15, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constantFrom('&%ZZ=1', '&a=%', '&%00', '&=&&==', '&limit=1&limit[]=2', '&a[b][c][d][e]=1') },
    ),
    body: bodyArbitrary(operation.body, hints),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant<string | undefined>('application/json') },
      { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
      { weight: 2, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES) },
    ),
    unknownPath: fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: unknownPath }),
    extraHeaders: fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constantFrom(...EXTRA_HEADERS) }),
  });
}

/** Requests over the whole document, every operation equally likely. */
export function requestPlans(operations: readonly Operation[], hints: PropertyHints): fc.Arbitrary<RequestPlan> {
  return fc.oneof(...operations.map((operation) => planArbitrary(operation, hints)));
}

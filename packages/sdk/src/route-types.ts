import type { RouteSpec } from '@crawl/contracts';
import type { Static, TSchema } from '@sinclair/typebox';

type Part<R extends RouteSpec, K extends 'params' | 'querystring' | 'body'> = R['schema'] extends { readonly [P in K]: infer S extends TSchema }
  ? Static<S>
  : never;

/** What a call to the route takes: path parameters, query and body, each present only when the route has it. */
export type RouteInput<R extends RouteSpec> = ([Part<R, 'params'>] extends [never] ? { params?: undefined } : { params: Part<R, 'params'> }) &
  ([Part<R, 'querystring'>] extends [never] ? { query?: undefined } : { query?: Part<R, 'querystring'> }) &
  ([Part<R, 'body'>] extends [never] ? { body?: undefined } : { body: Part<R, 'body'> });

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<R extends RouteSpec> = R['schema']['response'];

/** The body of the route's 2xx answer, as the contract's schema types it. */
export type RouteOutput<R extends RouteSpec> = {
  [S in keyof Responses<R>]: S extends SuccessStatus ? (Responses<R>[S] extends TSchema ? Static<Responses<R>[S]> : never) : never;
}[keyof Responses<R>];

/** The `data` of an enveloped 2xx answer. */
export type RouteData<R extends RouteSpec> = RouteOutput<R> extends { data: infer D } ? D : never;

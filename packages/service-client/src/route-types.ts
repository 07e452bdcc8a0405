import type { InternalRouteSpec } from '@crawl/contracts';
import type { Static, TSchema } from '@sinclair/typebox';

type Part<S extends InternalRouteSpec, K extends 'params' | 'querystring' | 'body'> = S['schema'] extends { readonly [P in K]: infer T extends TSchema }
  ? Static<T>
  : never;

/** What a call to an internal route takes: path parameters, query and body, each present only when the route has it. */
export type InternalRouteInput<S extends InternalRouteSpec> = ([Part<S, 'params'>] extends [never] ? { params?: undefined } : { params: Part<S, 'params'> }) &
  ([Part<S, 'querystring'>] extends [never] ? { query?: undefined } : { query?: Part<S, 'querystring'> }) &
  ([Part<S, 'body'>] extends [never] ? { body?: undefined } : { body: Part<S, 'body'> });

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<S extends InternalRouteSpec> = S['schema'] extends { readonly response: infer R } ? R : never;

/**
 * The body of the route's 2xx answer, as its response schema types it. A route without response
 * schemas answers `unknown`: the caller learns nothing it could rely on.
 */
export type InternalRouteOutput<S extends InternalRouteSpec> = [Responses<S>] extends [never]
  ? unknown
  : { [K in keyof Responses<S>]: K extends SuccessStatus ? (Responses<S>[K] extends TSchema ? Static<Responses<S>[K]> : never) : never }[keyof Responses<S>];

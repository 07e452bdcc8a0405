import type { AccessLevel, Identity, InternalRouteSpec, RateLimitPolicy, RouteSpec, ServiceName } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessLevel;
    owner?: ServiceName;
    rateLimits?: readonly RateLimitPolicy[];
    /** Answers are sent with `Cache-Control: no-store` (see RouteSpec.noStore). */
    noStore?: boolean;
  }
}

/** A public route from a contracts table, or an internal one (service to service). */
export type AnyRouteSpec = RouteSpec | InternalRouteSpec;

/**
 * The schemas the handler is typed from. A raw route answers success with a file or a stream
 * the serializer never sees, so only its request side is typed.
 */
type TypedSchema<S extends AnyRouteSpec> = S extends { readonly raw: true } ? Omit<S['schema'], 'response'> : S['schema'];

/** The request a handler of `S` receives: params, query and body are the statics of its schemas. */
export type SpecRequest<S extends AnyRouteSpec> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  TypedSchema<S>,
  TypeBoxTypeProvider
>;

/** The reply of a handler of `S`: `reply.code(201).send(x)` checks `x` against the 201 schema. */
export type SpecReply<S extends AnyRouteSpec> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  TypedSchema<S>,
  TypeBoxTypeProvider
>;

type Responses<S extends AnyRouteSpec> = TypedSchema<S> extends { readonly response: infer R } ? R : never;

/** Any body the route's response schemas allow; `unknown` when it declares none. */
export type SpecResponseBody<S extends AnyRouteSpec> = [Responses<S>] extends [never]
  ? unknown
  : { [K in keyof Responses<S>]: Responses<S>[K] extends TSchema ? Static<Responses<S>[K]> : never }[keyof Responses<S>];

type Outcome<S extends AnyRouteSpec> = SpecResponseBody<S> | SpecReply<S> | void;

/** A handler whose request and returned body follow its route's schemas, so neither can drift. */
export type SpecHandler<S extends AnyRouteSpec> = (request: SpecRequest<S>, reply: SpecReply<S>) => Outcome<S> | Promise<Outcome<S>>;

/**
 * Registers a handler for a route from the contracts: the path, schemas, access level and
 * throttles are declared once (and, for public routes, shared with the gateway), and the
 * handler's types come from the same schemas through the TypeBox type provider.
 */
export function routeFromSpec<const S extends AnyRouteSpec>(app: FastifyInstance, spec: S, handler: SpecHandler<S>): void {
  const schema = 'tags' in spec.schema ? { ...spec.schema, tags: [...spec.schema.tags] } : { ...spec.schema };
  const config =
    'owner' in spec
      ? { access: spec.access, owner: spec.owner, rateLimits: spec.rateLimits, ...(spec.noStore ? { noStore: true } : {}) }
      : { access: spec.access };
  app.route({
    method: spec.method,
    url: spec.url,
    schema,
    config,
    ...('bodyLimit' in spec && spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    // Fastify's own route typing cannot follow a schema chosen at run time; SpecHandler holds the types.
    handler: handler as unknown as RouteHandlerMethod,
  });
}

/**
 * The caller access control attached to the request. Routes that require a user always have one;
 * the check keeps a route declared with a weaker access level from reading a null identity.
 */
export function callerOf(request: { readonly identity: Identity | null }): Identity {
  if (!request.identity) throw errors.unauthorized();
  return request.identity;
}

import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** ISO 8601 UTC timestamp, e.g. `2026-11-22T10:00:00.000Z`. */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-22T10:00:00.000Z'] });
export type Timestamp = Static<typeof Timestamp>;

export const Id = Type.String({ minLength: 1, maxLength: 64 });
export type Id = Static<typeof Id>;

/** Path parameter holding an opaque id; bounded so junk never reaches storage. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const DataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data });

export const ListMeta = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
});
export type ListMeta = Static<typeof ListMeta>;

export const ListEnvelope = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), meta: ListMeta });

export const Pagination = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';
import { TrackedValue } from './observations.ts';

// History: the tracked values of products and of keywords' ranks, kept as change points
// (docs/history.md). A point holds the values in force from `from` until `to`, the last check
// that saw them; `checks` counts the checks it stands for.

export const HISTORY_LIMITS = {
  defaultLimit: 100,
  maxLimit: 1000,
  keywordMaxLength: 512,
  /** The storefront when a request or a record names none. */
  defaultMarketplace: 'amazon.com',
} as const;

const Asin = Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'A 10-character ASIN (upper-case letters and digits).', examples: ['B08N5WRWNW'] });
const Domain = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The storefront (`amazon.de`, any case, `www.` accepted); `amazon.com` when absent.',
  examples: ['amazon.de'],
});
const From = Type.String({ format: 'date-time', description: 'Only points in force at or after this time (ISO 8601).' });
const To = Type.String({ format: 'date-time', description: 'Only points that began at or before this time (ISO 8601).' });
const Limit = Type.Integer({
  minimum: 1,
  maximum: 1_000_000,
  default: HISTORY_LIMITS.defaultLimit,
  description: `Points per page; capped at ${HISTORY_LIMITS.maxLimit}.`,
});
const Cursor = Type.String({
  minLength: 1,
  maxLength: 400,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'Opaque: a `nextCursor` from an earlier response with the same filters. Returns the points after it.',
});
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next points; null at the end.' });

export const ProductAsinParams = Type.Object({ asin: Asin }, { additionalProperties: false });
export type ProductAsinParams = Static<typeof ProductAsinParams>;

export const HistoryResolution = Type.Union([Type.Literal('1h'), Type.Literal('1d')], {
  description: 'Downsample to one point per hour or day: the values in force at the end of the bucket (or at the last check in it).',
});
export type HistoryResolution = Static<typeof HistoryResolution>;

export const ProductHistoryQuery = Type.Object(
  {
    domain: Type.Optional(Domain),
    zip: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 16,
        pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
        description: "The delivery postal code of the job's `config.deliveryZip`; absent: the history of jobs that set none.",
      }),
    ),
    from: Type.Optional(From),
    to: Type.Optional(To),
    fields: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 400,
        description: 'Comma-separated tracked fields to return (`price,inStock`); `bestSellersRank` stands for every category. Default: all.',
        examples: ['price,inStock'],
      }),
    ),
    resolution: Type.Optional(HistoryResolution),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type ProductHistoryQuery = Static<typeof ProductHistoryQuery>;

export const ProductLatestQuery = Type.Object({ domain: Type.Optional(Domain), zip: ProductHistoryQuery.properties.zip }, { additionalProperties: false });
export type ProductLatestQuery = Static<typeof ProductLatestQuery>;

/** Tracked values by field: `price`, `inStock`, … and `bestSellersRank:<category>` per category. */
export const HistoryValues = Type.Object(
  {},
  {
    $id: 'HistoryValues',
    additionalProperties: TrackedValue,
    description: 'Tracked values by field (`bestSellersRank:<category>` per category). A field never observed is absent; null is an observed absence.',
    examples: [{ price: 19.99, currency: 'EUR', inStock: true, 'bestSellersRank:Electronics': 42, hasCoupon: false }],
  },
);
export type HistoryValues = { [field: string]: TrackedValue };

export const HistoryPoint = Type.Object(
  {
    from: Timestamp,
    to: Type.String({ format: 'date-time', description: 'The last check that saw these values (the end of the bucket when downsampled).' }),
    checks: Type.Integer({ minimum: 1, description: 'Checks that saw these values (downsampled: those of the change point in force at the bucket end).' }),
    values: Type.Unsafe<HistoryValues>(HistoryValues),
  },
  { $id: 'HistoryPoint' },
);
export type HistoryPoint = Static<typeof HistoryPoint>;

export const ProductSubject = Type.Object(
  {
    marketplace: Type.String({ examples: ['amazon.de'] }),
    asin: Type.String({ examples: ['B08N5WRWNW'] }),
    zip: Type.Union([Type.String(), Type.Null()], { description: 'The verified delivery postal code; null for jobs that set none.' }),
  },
  { $id: 'ProductSubject' },
);
export type ProductSubject = Static<typeof ProductSubject>;

export const ProductHistory = Type.Object(
  {
    subject: ProductSubject,
    points: Type.Array(HistoryPoint),
    nextCursor: NextCursor,
  },
  { $id: 'ProductHistory' },
);
export type ProductHistory = Static<typeof ProductHistory>;

export const ProductObservation = Type.Object(
  {
    subject: ProductSubject,
    values: Type.Unsafe<HistoryValues>(HistoryValues),
    since: Type.String({ format: 'date-time', description: 'When these values were first seen (the last change).' }),
    lastSeenAt: Type.String({ format: 'date-time', description: 'The last check.' }),
    checks: Type.Integer({ minimum: 1, description: 'Checks since the last change.' }),
  },
  { $id: 'ProductObservation' },
);
export type ProductObservation = Static<typeof ProductObservation>;

export const KeywordParams = Type.Object(
  { keyword: Type.String({ minLength: 1, maxLength: HISTORY_LIMITS.keywordMaxLength, description: 'The search keyword (case and spacing are ignored).' }) },
  { additionalProperties: false },
);
export type KeywordParams = Static<typeof KeywordParams>;

export const KeywordRanksQuery = Type.Object(
  {
    domain: Type.Optional(Domain),
    asin: Type.Optional(Asin),
    from: Type.Optional(From),
    to: Type.Optional(To),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type KeywordRanksQuery = Static<typeof KeywordRanksQuery>;

const RankValue = (description: string) => Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description }));

export const RankPoint = Type.Object(
  {
    asin: Type.String(),
    from: Timestamp,
    to: Type.String({ format: 'date-time', description: 'The last check that saw these values.' }),
    checks: Type.Integer({ minimum: 1 }),
    organicRank: RankValue('Place among the organic results; null: not among the organic results of the pages checked. Absent: never observed.'),
    sponsoredPosition: RankValue('Position of its sponsored placement on the page; null: none.'),
    page: RankValue('The result page it was on; null: not on the pages checked.'),
  },
  { $id: 'RankPoint' },
);
export type RankPoint = Static<typeof RankPoint>;

export const KeywordRanks = Type.Object(
  {
    keyword: Type.String({ description: 'As compared: lower case, single spaces.' }),
    marketplace: Type.String(),
    points: Type.Array(RankPoint, { description: 'By ASIN, then in time order.' }),
    nextCursor: NextCursor,
  },
  { $id: 'KeywordRanks' },
);
export type KeywordRanks = Static<typeof KeywordRanks>;

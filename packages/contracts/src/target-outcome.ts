import { Type, type Static } from '@sinclair/typebox';

// How a target ended beyond its status: the worker reports these (internal-catalog.ts), the job
// view shows them (catalog.ts), and billing's settlement and ledger count the charges (billing.ts).

/** What kind of page stood in for the one asked for, when a target failed as `blocked`. */
export const BlockKind = Type.Union(
  [
    Type.Literal('captcha'),
    Type.Literal('challenge'),
    Type.Literal('interstitial'),
    Type.Literal('error_page'),
    Type.Literal('robot_check'),
    Type.Literal('rate_limited'),
    Type.Literal('signin_wall'),
  ],
  { description: 'The page served instead of the one asked for (failed targets with reason `blocked`).' },
);
export type BlockKind = Static<typeof BlockKind>;

/**
 * Why a target delivered with its records is not charged: a record lacks a field the job requires
 * (`config.require`), or the page's delivery location could not be verified (`config.deliveryZip`).
 */
export const UnchargedReason = Type.Union([Type.Literal('partial'), Type.Literal('location_unverified')], {
  description: 'Why a successful target was delivered without charge.',
});
export type UnchargedReason = Static<typeof UnchargedReason>;

/** Successful targets split by whether they are charged: a job's, a settlement's, a month's or a day's. */
export const TargetCharges = Type.Object({
  chargedTargets: Type.Integer({ minimum: 0, description: 'Targets that succeeded and are charged.' }),
  unchargedTargets: Type.Integer({
    minimum: 0,
    description: 'Targets that delivered their records without charge (each such target says why in `uncharged`).',
  }),
  cachedUnits: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Of the charged units (targets, or pages of search targets), those answered from the shared page cache at the cached price.',
    }),
  ),
});
export type TargetCharges = Static<typeof TargetCharges>;

/**
 * How much of what the marketplace holds a target fetched (reviews targets): never a short list
 * passed off as all of it. `limitedBy` says what stopped the crawl short of the total.
 */
export const TargetCoverage = Type.Object(
  {
    fetched: Type.Integer({ minimum: 0, description: 'Records delivered (distinct).' }),
    totalRatings: Type.Optional(Type.Integer({ minimum: 0, description: 'Ratings the page counts (with and without text).' })),
    totalReviews: Type.Optional(Type.Integer({ minimum: 0, description: 'Reviews with text the page counts.' })),
    limitedBy: Type.Union([Type.Literal('none'), Type.Literal('maxReviews'), Type.Literal('page_cap'), Type.Literal('signin_wall')], {
      description:
        "`none`: everything the filters match was fetched; `maxReviews`: the job's limit was reached; `page_cap`: the marketplace shows no more pages (after the fan-out over star filters and sorts); `signin_wall`: the marketplace asked to sign in.",
    }),
  },
  { $id: 'TargetCoverage' },
);
export type TargetCoverage = Static<typeof TargetCoverage>;

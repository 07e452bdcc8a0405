import { Type, type Static } from '@sinclair/typebox';

// The parts every kind of record shares (docs/data.md). Kept apart from records.ts so a record
// schema of its own file can use them without an import cycle through the union of all records.

export const RecordPrice = Type.Object(
  {
    amount: Type.Number({ description: "Exact to the currency's minor unit." }),
    currency: Type.String({ description: 'ISO 4217.', examples: ['EUR'] }),
    raw: Type.String({ description: 'As the page shows it.', examples: ['1.234,56 €'] }),
  },
  { $id: 'RecordPrice' },
);

export const Badges = <T extends string>(values: readonly T[], description: string) =>
  Type.Array(Type.Union(values.map((v) => Type.Literal(v))), { description });

export const MissingFields = Type.Array(Type.String(), { description: 'The optional fields this record lacks (the page does not show them).' });

/** Whether a record has every field its job requires (`config.require`); a partial record is not charged. */
export const RecordQuality = Type.Object(
  {
    status: Type.Union([Type.Literal('complete'), Type.Literal('partial')], {
      description: '`partial`: a field the job requires is missing (after one more try on another session); the target is not charged.',
    }),
    missing: Type.Array(Type.String(), { description: 'The required fields this record lacks.' }),
  },
  { $id: 'RecordQuality' },
);
export type RecordQuality = Static<typeof RecordQuality>;

/** The delivery location a job asked for (`config.deliveryZip`) against the one the page shows. */
export const RecordLocation = Type.Object(
  {
    requested: Type.String({ description: 'The postal code the job asked for.', examples: ['10115'] }),
    observed: Type.Optional(Type.String({ description: "The location the page's header names.", examples: ['Berlin 10115'] })),
    verified: Type.Boolean({ description: 'The page shows the requested postal code; false: not charged.' }),
  },
  { $id: 'RecordLocation' },
);
export type RecordLocation = Static<typeof RecordLocation>;
export const DeliverTo = Type.String({ description: 'The delivery location the page was shown for, as its header names it.', examples: ['Berlin 10115'] });

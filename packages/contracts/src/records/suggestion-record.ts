import { Type, type Static } from '@sinclair/typebox';
import { MissingFields, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

export const SuggestionRecord = Type.Object(
  {
    prefix: Type.String({ description: 'The prefix the job asked for, as typed.', examples: ['iph'] }),
    position: Type.Integer({ minimum: 1, description: 'Place in the suggestion list, as the storefront orders it.' }),
    suggestion: Type.String({ description: 'The suggested search.', examples: ['iphone 15 case'] }),
    type: O(Type.String({ description: 'The kind of suggestion the storefront gives (`KEYWORD`, `WIDGET`, …).', examples: ['KEYWORD'] })),
    marketplace: O(Type.String({ examples: ['amazon.de'] })),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  { $id: 'SuggestionRecord', additionalProperties: true, description: 'An autocomplete job result: one suggestion for a prefix.' },
);
export type SuggestionRecord = Static<typeof SuggestionRecord>;

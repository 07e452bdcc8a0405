import { Type, type Static } from '@sinclair/typebox';
import { SearchRecord } from './search-record.ts';

const O = Type.Optional;

/** A search item's fields a listing item has too: all but the keyword, the page's related searches and the page cache's time (category jobs take no maxAge). */
const { keyword: _keyword, relatedSearches: _related, cachedAt: _cachedAt, ...listingItem } = SearchRecord.properties;

// A category listing is a results page: its items have a search item's fields, plus the category
// they were listed under.
export const CategoryItemRecord = Type.Object(
  {
    nodeId: Type.String({ description: 'The browse node id the job asked for.', examples: ['172541'] }),
    categoryName: O(Type.String({ description: 'The category as the listing names it.', examples: ['Headphones'] })),
    ...listingItem,
  },
  { $id: 'CategoryItemRecord', additionalProperties: true, description: 'A category job result: one item of a category listing page.' },
);
export type CategoryItemRecord = Static<typeof CategoryItemRecord>;

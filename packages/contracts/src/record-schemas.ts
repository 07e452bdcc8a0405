import type { TObject } from '@sinclair/typebox';
import type { JobType } from './credits.ts';
import { ProductRecord, SearchRecord } from './records.ts';
import { BestsellerRecord } from './records/bestseller-record.ts';
import { CategoryItemRecord } from './records/category-item-record.ts';
import { OfferRecord } from './records/offer-record.ts';
import { ReviewRecord } from './records/review-record.ts';
import { SellerRecord } from './records/seller-record.ts';
import { SuggestionRecord } from './records/suggestion-record.ts';

/** The record schema each job type's results follow (docs/data.md has a section per schema). */
export const RECORD_SCHEMAS: Readonly<Record<JobType, TObject>> = {
  search: SearchRecord,
  details: ProductRecord,
  reviews: ReviewRecord,
  offers: OfferRecord,
  bestsellers: BestsellerRecord,
  category: CategoryItemRecord,
  seller: SellerRecord,
  autocomplete: SuggestionRecord,
};

import type {
  BestsellerRecord,
  CategoryItemRecord,
  JobType,
  OfferRecord,
  ProductRecord,
  ResultRecord,
  ReviewRecord,
  SearchRecord,
  SellerRecord,
  SuggestionRecord,
} from '@crawl/contracts';

/** The record each job type's results hold (docs/data.md has a section per record). */
export interface JobRecords {
  search: SearchRecord;
  details: ProductRecord;
  reviews: ReviewRecord;
  offers: OfferRecord;
  bestsellers: BestsellerRecord;
  category: CategoryItemRecord;
  seller: SellerRecord;
  autocomplete: SuggestionRecord;
}

/**
 * The records of a job of type `T`: `RecordOf<'reviews'>` is a ReviewRecord. Without a single
 * type (the union `JobType`), any record: a ResultRecord, whose fields of every kind can be read.
 */
export type RecordOf<T extends JobType> = JobType extends T ? ResultRecord : JobRecords[T];

import { DataEnvelope } from './common.ts';
import { ErrorEnvelope } from './errors.ts';
import {
  KeywordParams,
  KeywordRanks,
  KeywordRanksQuery,
  ProductAsinParams,
  ProductHistory,
  ProductHistoryQuery,
  ProductLatestQuery,
  ProductObservation,
} from './history.ts';
import { defineRoutes } from './route-spec.ts';

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** Public routes of history, owned by catalog: what products and keywords' ranks looked like over time (docs/history.md). */
export const HistoryRoutes = defineRoutes({
  productHistory: {
    method: 'GET',
    url: '/products/:asin/history',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A product's tracked values over time, as change points",
      description:
        "The organization's observations of the product on one storefront and delivery postal code: one point per change, each holding the values from `from` until the last check that saw them (`to`). `resolution` downsamples for charts. Cursor-paged, oldest first.",
      tags: ['history'],
      params: ProductAsinParams,
      querystring: ProductHistoryQuery,
      response: { 200: DataEnvelope(ProductHistory), 400: E, ...authErrors },
    },
  },
  productLatest: {
    method: 'GET',
    url: '/products/:asin',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A product's latest observed values and when they were last seen",
      tags: ['history'],
      params: ProductAsinParams,
      querystring: ProductLatestQuery,
      response: { 200: DataEnvelope(ProductObservation), 400: E, ...authErrors, 404: E },
    },
  },
  keywordRanks: {
    method: 'GET',
    url: '/keywords/:keyword/ranks',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A keyword's rank history: organic rank, sponsored position and page per ASIN",
      description:
        'Change points per ASIN (one ASIN with `asin`), by ASIN then oldest first. An ASIN that was on a page the latest check covered but is no longer there has `organicRank: null`. Cursor-paged.',
      tags: ['history'],
      params: KeywordParams,
      querystring: KeywordRanksQuery,
      response: { 200: DataEnvelope(KeywordRanks), 400: E, ...authErrors },
    },
  },
});

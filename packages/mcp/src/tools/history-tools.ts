import { KeywordRanksQuery, ProductHistoryQuery } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool.ts';

export const productHistory = defineTool({
  name: 'product_history',
  title: 'Product history',
  description:
    "How a product's tracked values (price, rating, availability, best-sellers rank, …) changed over time, as change points from the caller's jobs, oldest first; cursor-paged (`nextCursor`).",
  input: Type.Object(
    { asin: Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'The 10-character ASIN.' }), ...ProductHistoryQuery.properties },
    { additionalProperties: false },
  ),
  readOnly: true,
  run: ({ asin, ...query }, { client, signal }) => client.history.product(asin, query, { signal }),
});

export const keywordRanks = defineTool({
  name: 'keyword_ranks',
  title: 'Keyword ranks',
  description:
    "Where products ranked in a keyword's search results over time (organic position, sponsored), from the caller's search jobs; cursor-paged (`nextCursor`).",
  input: Type.Object({ keyword: Type.String({ minLength: 1, maxLength: 200 }), ...KeywordRanksQuery.properties }, { additionalProperties: false }),
  readOnly: true,
  run: ({ keyword, ...query }, { client, signal }) => client.history.keywordRanks(keyword, query, { signal }),
});

/** Parsing fetched pages: inline, or on a pool of worker threads (PARSE_THREADS), timed by the parser metrics. */
export { measuredParser } from './measured-parser.ts';
export { defaultParseThreads, openPageParser } from './open-page-parser.ts';
export { inlinePageParser, type PageParser } from './page-parser.ts';

import type { TextDecoder } from 'node:util';
import { parseSearchPage, readProductPage, type ParseProductPageOptions, type ParseSearchPageOptions } from '@crawl/marketplace';
import { textDecoderFor } from '../shared/text-decoder.ts';
import { type KindOptions, type PageKind, readKind } from './kind-readers.ts';

/** One page's extraction: the page's bytes and their charset, and what to read from them. */
export type ParseTask =
  | { kind: 'product'; page: Uint8Array; charset: string; options: ParseProductPageOptions }
  | { kind: 'search'; page: Uint8Array; charset: string; options: ParseSearchPageOptions }
  | { [K in PageKind]: { kind: K; page: Uint8Array; charset: string; options: KindOptions<K> } }[PageKind];

const decoders = new Map<string, TextDecoder>();

/** As the fetcher decodes; one decoder per charset (each decodes a whole page, so keeps no state). */
function decoderFor(charset: string): TextDecoder {
  let decoder = decoders.get(charset);
  if (!decoder) {
    decoder = textDecoderFor(charset);
    decoders.set(charset, decoder);
  }
  return decoder;
}

/**
 * A page's extracted data from its bytes: UTF-8 bytes go to the parsers as they are (read without
 * decoding the whole page into a string, see @crawl/marketplace html/page-text.ts), any other
 * charset is decoded first. What a parse thread runs per page, what inline parsing runs when it has
 * the bytes, and what the pipeline bench times for its ceiling.
 */
export function extractPage(task: ParseTask): unknown {
  const decoder = decoderFor(task.charset);
  if (task.kind === 'product') return readProductPage(decoder.encoding === 'utf-8' ? task.page : decoder.decode(task.page), task.options);
  if (task.kind === 'search') return parseSearchPage(decoder.encoding === 'utf-8' ? task.page : decoder.decode(task.page), task.options);
  // The other kinds' parsers read text: their pages are small or JSON.
  const { kind, page, options } = task as Extract<ParseTask, { kind: PageKind }>;
  return readKind(kind, decoder.decode(page), options as never);
}

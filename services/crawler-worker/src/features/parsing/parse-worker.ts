// Runs inside a pool thread: one page in (its bytes, moved here, decoded here), its extracted data out.
import { TextDecoder } from 'node:util';
import { parseProductPage, parseSearchPage, type ParseProductPageOptions, type ParseSearchPageOptions } from '@crawl/marketplace';

export type ParseTask =
  | { kind: 'product'; page: Uint8Array; charset: string; options: ParseProductPageOptions }
  | { kind: 'search'; page: Uint8Array; charset: string; options: ParseSearchPageOptions };

const decoders = new Map<string, TextDecoder>();

/** As the fetcher decodes: the page's charset, UTF-8 when Node does not know it. */
function decoderFor(charset: string): TextDecoder {
  let decoder = decoders.get(charset);
  if (!decoder) {
    try {
      decoder = new TextDecoder(charset);
    } catch {
      decoder = new TextDecoder('utf-8');
    }
    decoders.set(charset, decoder);
  }
  return decoder;
}

export default function parse(task: ParseTask): unknown {
  const html = decoderFor(task.charset).decode(task.page);
  return task.kind === 'product' ? parseProductPage(html, task.options) : parseSearchPage(html, task.options);
}

import { TextDecoder } from 'node:util';

/**
 * A decoder for a page's declared charset, UTF-8 when Node does not know it. The fetcher decodes a
 * page's text with it and the parsers (in a parse thread too) its bytes, so both read it alike.
 */
export function textDecoderFor(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder('utf-8');
  }
}

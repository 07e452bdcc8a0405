import { TextDecoder } from 'node:util';

/** A decoder for a page's declared charset, UTF-8 when Node does not know it. */
export function textDecoderFor(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder('utf-8');
  }
}

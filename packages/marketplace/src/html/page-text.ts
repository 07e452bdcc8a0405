import { Buffer, isAscii } from 'node:buffer';

/**
 * A page as the scanners read it: its text, or its UTF-8 bytes one character per byte.
 *
 * Decoding a page whose bytes hold a single non-ASCII character makes a two-byte string twice the
 * page's size (≈2.6 MB for a 1.3 MB product page) and costs a full UTF-8 decode. Read as latin1,
 * the bytes become a one-byte string by a plain copy, one character per byte. All markup is ASCII
 * and no byte of a multi-byte UTF-8 sequence is, so finding and tokenizing tags reads the same
 * either way; only the values handed to the parsers (text and attribute values, see
 * `utf8BytesToText`) are turned back into Unicode, and references such as `&eacute;` are decoded
 * into their UTF-8 bytes first (`textToUtf8Bytes`) so a value is all bytes before that.
 */
export interface PageText {
  text: string;
  /** `text` holds UTF-8 bytes one per character, some of them non-ASCII: values need `utf8BytesToText`. */
  utf8Bytes: boolean;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** The page to scan: a string as it is; bytes (UTF-8) read as latin1, without the byte order mark a decoder drops. */
export function pageText(page: string | Uint8Array | PageText): PageText {
  if (typeof page === 'string') return { text: page, utf8Bytes: false };
  if (!(page instanceof Uint8Array)) return page;
  const start = page[0] === 0xef && page[1] === 0xbb && page[2] === 0xbf ? 3 : 0;
  const bytes = Buffer.from(page.buffer, page.byteOffset + start, page.byteLength - start);
  // An ASCII page reads the same as bytes and as text: its values need no conversion.
  return { text: bytes.toString('latin1'), utf8Bytes: !isAscii(bytes) };
}

/** A value cut from a page read as bytes, as Unicode text. */
export function utf8BytesToText(bytes: string): string {
  return NON_ASCII.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes;
}

/** Unicode text (a decoded character reference) as UTF-8 bytes one per character, to sit among a page's bytes. */
export function textToUtf8Bytes(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

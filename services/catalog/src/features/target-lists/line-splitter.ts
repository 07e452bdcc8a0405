/** One line of an upload: its number (1-based) and text; a line over the bound keeps only its start. */
export interface UploadLine {
  number: number;
  text: string;
  tooLong: boolean;
}

const NEWLINE = 0x0a;
/** What a line over the bound keeps, to show in its refusal. */
const SHOWN_BYTES = 200;
const decoder = new TextDecoder('utf-8');

/**
 * Splits a byte stream into lines as it arrives, holding at most one line (bounded by
 * `maxLineBytes`) besides the chunk being read: the rest of a line past the bound is skipped
 * unread and the line reported as too long.
 */
export async function* splitLines(source: AsyncIterable<Uint8Array | string>, maxLineBytes: number): AsyncGenerator<UploadLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 0;
  const take = (piece: Buffer): void => {
    if (tooLong) return;
    if (pendingBytes + piece.length > maxLineBytes) {
      tooLong = true;
      pending = [Buffer.concat([...pending, piece]).subarray(0, SHOWN_BYTES)];
      return;
    }
    // Copied: the chunk is not ours to keep past this step.
    pending.push(Buffer.from(piece));
    pendingBytes += piece.length;
  };
  const line = (): UploadLine => {
    number += 1;
    let text = decoder.decode(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    if (text.endsWith('\r')) text = text.slice(0, -1);
    // A byte order mark (spreadsheet exports write one) is not part of the first target.
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const result = { number, text, tooLong };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return result;
  };
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      take(buffer.subarray(start, end));
      yield line();
      start = end + 1;
    }
    if (start < buffer.length) take(buffer.subarray(start));
  }
  if (pendingBytes > 0 || tooLong) yield line();
}

import { errors } from '@crawl/errors';

/** Where a page of history ends: a change point (`seq`, with its ASIN on a keyword's list) or a bucket's start (ms). */
export type HistoryCursor = { seq: number; asin?: string } | { bucket: number };

export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const bad = () => errors.validation('cursor is not a cursor this endpoint issued');

/** @throws VALIDATION_ERROR for anything but a cursor of the kind this listing issues. */
export function decodeCursor(text: string, kind: 'seq' | 'asin' | 'bucket'): HistoryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null) throw bad();
  const { seq, asin, bucket } = parsed as { seq?: unknown; asin?: unknown; bucket?: unknown };
  if (kind === 'bucket') {
    if (typeof bucket !== 'number' || !Number.isSafeInteger(bucket)) throw bad();
    return { bucket };
  }
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw bad();
  if (kind === 'asin') {
    if (typeof asin !== 'string' || !/^[A-Z0-9]{10}$/.test(asin)) throw bad();
    return { seq, asin };
  }
  return { seq };
}

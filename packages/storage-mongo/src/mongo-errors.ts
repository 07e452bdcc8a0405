import { MongoServerError } from 'mongodb';
import { DuplicateKeyError, StorageUnavailableError } from '@crawl/storage';

/** MaxTimeMSExpired, ExceededTimeLimit. */
const TIME_LIMIT_CODES = new Set<unknown>([50, 262]);

function isTimeLimit(error: unknown): boolean {
  if (error instanceof MongoServerError) {
    if (TIME_LIMIT_CODES.has(error.code)) return true;
    // FerretDB v1 answers a findAndModify past its maxTimeMS with InternalError (1) "… context deadline exceeded".
    if (error.code === 1 && /context deadline exceeded/.test(error.message)) return true;
  }
  // A driver-side timeout, or the abort reason of an `AbortSignal.timeout`.
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'MongoOperationTimeoutError' || name === 'TimeoutError';
}

/** The driver's errors as the port's: duplicate keys, time limits and lost servers (503), the rest unchanged. */
export function translate(error: unknown, collection: string): Error {
  if (error instanceof MongoServerError && error.code === 11000) {
    const index = /index: (\S+)/.exec(error.message)?.[1] ?? 'unique index';
    return new DuplicateKeyError(collection, index);
  }
  if (isTimeLimit(error)) {
    return new StorageUnavailableError(`Database operation on ${collection} exceeded its time limit`, { cause: error });
  }
  if (
    error instanceof Error &&
    /MongoServerSelectionError|MongoNetworkError|MongoNotConnectedError|MongoTopologyClosedError|PoolClearedError/.test(error.name)
  ) {
    return new StorageUnavailableError(`Database unavailable: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

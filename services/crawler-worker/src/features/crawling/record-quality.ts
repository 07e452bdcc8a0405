import type { RecordQuality } from '@crawl/contracts';

/**
 * The fields a job requires of each record (`config.require`, checked against the record schema when
 * the job was created): anything else in the config is no requirement.
 */
export function requiredFields(config: { require?: unknown }): readonly string[] {
  const wanted = config.require;
  return Array.isArray(wanted) ? wanted.filter((field): field is string => typeof field === 'string') : [];
}

/** A field a record has: a value that is not empty (an empty list or text says nothing). */
function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Complete when the record has every required field; partial names the ones it lacks. */
export function recordQuality(record: Readonly<Record<string, unknown>>, required: readonly string[]): RecordQuality {
  const missing = required.filter((field) => !present(record[field]));
  return { status: missing.length === 0 ? 'complete' : 'partial', missing };
}

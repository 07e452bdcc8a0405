import { recordField, type JobConfig, type RecordQuality } from '@crawl/contracts';

/**
 * The fields a job requires of each record (`config.require`, checked against the record schema when
 * the job was created): anything else in the config is no requirement.
 */
export function requiredFields(config: Pick<JobConfig, 'require'>): readonly string[] {
  return config.require ?? [];
}

/** A field a record has: a value that is not empty (an empty list or text says nothing). */
function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Complete when the record has every required field; partial names the ones it lacks. The fields
 * are names the job gave (checked against the record's schema), so the record is read by name.
 */
export function recordQuality(record: object, required: readonly string[]): RecordQuality {
  const missing = required.filter((field) => !present(recordField(record, field)));
  return { status: missing.length === 0 ? 'complete' : 'partial', missing };
}

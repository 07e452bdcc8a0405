import type { TObject } from '@sinclair/typebox';
import { JOB_TYPES, type JobType } from './credits.ts';
import { RECORD_SCHEMAS } from './record-schemas.ts';

/** Fields about the record rather than the page (what it lacks, how it was checked): nothing to require. */
const BOOKKEEPING_FIELDS: ReadonlySet<string> = new Set(['missingFields', 'quality', 'location', 'cachedAt']);

const fieldsOf = (schema: TObject): readonly string[] => Object.keys(schema.properties).filter((name) => !BOOKKEEPING_FIELDS.has(name));

/**
 * The record fields a job may name in `config.require`, per job type: the properties of the
 * record schema its results follow (ProductRecord for details, SearchRecord for search, …), read
 * from the schemas so a field added there can be required at once.
 */
export const REQUIRABLE_FIELDS: Readonly<Record<JobType, readonly string[]>> = Object.fromEntries(
  JOB_TYPES.map((type) => [type, fieldsOf(RECORD_SCHEMAS[type])]),
) as Record<JobType, readonly string[]>;

/** At most this many names in `config.require`: a job needs a handful of fields, and the config stays small. */
export const MAX_REQUIRED_FIELDS = 40;

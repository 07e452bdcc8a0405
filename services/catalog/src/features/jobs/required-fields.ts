import { MAX_REQUIRED_FIELDS, REQUIRABLE_FIELDS, type JobType } from '@crawl/contracts';
import { errors } from '@crawl/errors';

const shown = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : String(value);
};

/**
 * `config.require` names fields of the job type's record (docs/data.md): each once, at most
 * MAX_REQUIRED_FIELDS. The worker judges each target's records against them, so a name it could
 * never find would make every target uncharged; such a job is refused before anything is reserved.
 * Every problem names its entry and the allowed names, which differ by job type.
 */
export function assertRequiredFields(type: JobType, value: unknown, path: string): void {
  if (value === undefined) return;
  const allowed = REQUIRABLE_FIELDS[type];
  const hint = `; fields of ${type} records: ${allowed.join(', ')}`;
  if (!Array.isArray(value)) throw errors.validation(`${path} must be a list of field names, got ${shown(value)}${hint}`);
  if (value.length > MAX_REQUIRED_FIELDS) throw errors.validation(`${path} must name at most ${MAX_REQUIRED_FIELDS} fields (got ${value.length})${hint}`);
  const known = new Set(allowed);
  const seen = new Set<string>();
  const problems: string[] = [];
  value.forEach((name: unknown, index) => {
    const at = `${path}[${index}]`;
    if (typeof name !== 'string') problems.push(`${at} must be a field name, got ${shown(name)}${hint}`);
    else if (!known.has(name)) problems.push(`${at} ${shown(name)} is not a field of ${type} records${hint}`);
    else if (seen.has(name)) problems.push(`${at} ${shown(name)} is listed twice${hint}`);
    else seen.add(name);
  });
  if (problems.length > 0) throw errors.validation(problems[0] as string, problems);
}

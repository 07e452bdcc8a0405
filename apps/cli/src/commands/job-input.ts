import { readFileSync } from 'node:fs';
import { type CreateJobBody, JOB_TYPES, type JobConfig, type MonitorType } from '@crawl/sdk';
import { UsageError } from '../cli-io.ts';

/** Commander collector for repeatable options (`--target a --target b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--target` values plus the lines of `--targets-file` (blank lines and `#` comments skipped). */
export function readTargets(targets: string[] | undefined, file: string | undefined, resolvePath: (file: string) => string): string[] {
  const all = [...(targets ?? [])];
  if (file) {
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : resolvePath(file), 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --targets-file ${file}: ${(error as Error).message}`);
    }
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed && !trimmed.startsWith('#')) all.push(trimmed);
    }
  }
  if (all.length === 0) throw new UsageError('no targets: give --target (repeatable) or --targets-file');
  return all;
}

/** Config keys whose value is a list: `stars=5,4` is `[5, 4]`, `require=price,rating` two names. */
const LIST_KEYS: ReadonlySet<string> = new Set(['stars', 'require']);

/**
 * `--config k=v` pairs as the job's config object. Values that read as JSON numbers, booleans,
 * null, objects or arrays are taken as such (`pages=2` is the number 2, `verifiedOnly=true` a
 * boolean); anything else is a string. A list key's value is split at commas, each item read the
 * same way (a JSON array is taken as it is).
 */
export function parseConfig(pairs: string[] | undefined): JobConfig | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const entries = pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--config expects key=value, got "${pair}"`);
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1);
    return [key, LIST_KEYS.has(key) && !raw.trim().startsWith('[') ? parseList(raw) : parseValue(raw)] as const;
  });
  // The server checks the values: the CLI only shapes them.
  return Object.fromEntries(entries) as JobConfig;
}

function parseList(raw: string): unknown[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    .map(parseValue);
}

function parseValue(raw: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(raw) || /^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

export function jobType(value: string): CreateJobBody['type'] {
  const type = JOB_TYPES.find((name) => name === value);
  if (type === undefined) throw new UsageError(`--type must be one of ${JOB_TYPES.join(', ')}, got "${value}"`);
  return type;
}

/** A monitor checks products or search results: the page kinds history keeps. */
export function monitorType(value: string): MonitorType {
  if (value !== 'search' && value !== 'details') throw new UsageError(`--type must be search or details, got "${value}"`);
  return value;
}

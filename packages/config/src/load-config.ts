import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Thrown at start-up when the environment does not satisfy a config schema. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A config schema: its keys are the environment variable names. */
export function defineConfig<T extends TProperties>(fields: T): TObject<T> {
  return Type.Object(fields);
}

type Source = Record<string, string | undefined>;

/**
 * Reads a schema's fields with precedence explicit overrides > environment > schema default,
 * coerces strings to the declared types and fails with every problem listed at once.
 */
export function loadConfig<T extends TObject>(schema: T, env: Source = process.env, overrides: Partial<Static<T>> = {}): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const fromEnv = env[key];
    if (fromEnv !== undefined && fromEnv !== '') raw[key] = fromEnv;
  }
  Object.assign(raw, overrides);
  const withDefaults = Value.Default(schema, Value.Convert(schema, raw));
  const problems = [...Value.Errors(schema, withDefaults)].map((e) => {
    const key = e.path.replace(/^\//, '') || '(root)';
    return `${key}: ${e.message}${raw[key] !== undefined ? ` (got ${JSON.stringify(raw[key])})` : ''}`;
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return withDefaults as Static<T>;
}

/** The rows of a config table: name, default and meaning, for docs and `--help`. */
export function describeConfig(schema: TObject): Array<{ name: string; default: string; description: string }> {
  return Object.entries(schema.properties).map(([name, field]) => ({
    name,
    default: field.default === undefined ? '' : String(field.default),
    description: String(field.description ?? ''),
  }));
}

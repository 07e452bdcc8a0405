/** The subset of an Ajv error the messages need. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/targets/0` becomes `targets[0]`; the part (body, querystring) prefixes it. */
function fieldName(context: string | undefined, error: SchemaError): string {
  const path = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
  const missing = error.keyword === 'required' ? String(error.params.missingProperty ?? '') : '';
  const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty ?? '') : '';
  const leaf = missing || extra;
  const full = [path, leaf].filter(Boolean).join(path && leaf ? '.' : '');
  return full || (context === 'body' ? 'body' : context === 'querystring' ? 'query' : (context ?? 'request'));
}

const article = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** `integer` → "an integer"; `string,null` → "a string or null". */
function typeNames(type: unknown): string {
  const names = (Array.isArray(type) ? type.map(String) : String(type).split(',')).map((name) => (name === 'null' ? 'null' : article(name)));
  return names.join(' or ');
}

const quoted = (values: readonly unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ');
const plural = (count: unknown, noun: string, nouns = `${noun}s`): string => `${String(count)} ${Number(count) === 1 ? noun : nouns}`;

/** Human sentences for schema failures, e.g. "targets must contain at least one element". */
export function describeSchemaError(error: SchemaError, context?: string): string {
  const field = fieldName(context, error);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not an allowed property`;
    case 'minItems':
      return Number(p.limit) === 1 ? `${field} must contain at least one element` : `${field} must contain at least ${plural(p.limit, 'element')}`;
    case 'maxItems':
      return `${field} must contain at most ${plural(p.limit, 'element')}`;
    case 'uniqueItems':
      return `${field} must not contain duplicates`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${field} must not be empty` : `${field} must be at least ${plural(p.limit, 'character')} long`;
    case 'maxLength':
      return `${field} must be at most ${plural(p.limit, 'character')} long`;
    case 'type':
      return `${field} must be ${typeNames(p.type)}`;
    case 'format':
      return `${field} must be a valid ${String(p.format)}`;
    case 'const':
      return `${field} must be ${JSON.stringify(p.allowedValue)}`;
    case 'enum':
      return `${field} must be one of ${quoted(Array.isArray(p.allowedValues) ? p.allowedValues : [p.allowedValues])}`;
    case 'minimum':
      return `${field} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `${field} must be a multiple of ${String(p.multipleOf)}`;
    case 'pattern':
      return `${field} has an invalid format`;
    case 'minProperties':
      return Number(p.limit) === 1 ? `${field} must have at least one property` : `${field} must have at least ${plural(p.limit, 'property', 'properties')}`;
    case 'maxProperties':
      return `${field} must have at most ${plural(p.limit, 'property', 'properties')}`;
    default:
      // The validator's own wording ("must match a schema in anyOf") means nothing to a client.
      return `${field} has an invalid value`;
  }
}

/**
 * The validator reports a union (`anyOf`) as one error per branch plus one for the union, all on
 * the same field. Read together they are one sentence: a union of constants is
 * `type must be one of "search", "details"`, a union of types `nextRunAt must be a string or null`.
 */
function describeUnion(branches: readonly SchemaError[], union: SchemaError, context?: string): string {
  const field = fieldName(context, union);
  const here = branches.filter((branch) => branch.instancePath === union.instancePath);
  if (here.length > 0 && here.length === branches.length) {
    if (here.every((branch) => branch.keyword === 'const' || branch.keyword === 'enum')) {
      const allowed = here.flatMap((branch) =>
        branch.keyword === 'const' ? [branch.params.allowedValue] : Array.isArray(branch.params.allowedValues) ? branch.params.allowedValues : [],
      );
      return `${field} must be one of ${quoted([...new Set(allowed)])}`;
    }
    if (here.every((branch) => branch.keyword === 'type')) {
      return `${field} must be ${[...new Set(here.map((branch) => typeNames(branch.params.type)))].join(' or ')}`;
    }
  }
  // Branches that failed deeper (a union of objects): the first branch's reason is the useful one.
  const first = branches[0];
  return first ? describeSchemaError(first, context) : `${field} has an invalid value`;
}

/** One sentence per failing field, unions folded into one (see describeUnion). */
export function describeSchemaErrors(errors: readonly SchemaError[], context?: string): string[] {
  const sentences: string[] = [];
  let pending: SchemaError[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      // Branch errors come before their union's error and lie at or under its path.
      const prefix = error.instancePath;
      const branches = pending.filter((branch) => branch.instancePath === prefix || branch.instancePath.startsWith(`${prefix}/`));
      pending = pending.filter((branch) => !branches.includes(branch));
      sentences.push(...pending.map((other) => describeSchemaError(other, context)));
      pending = [];
      sentences.push(describeUnion(branches, error, context));
      continue;
    }
    pending.push(error);
  }
  sentences.push(...pending.map((error) => describeSchemaError(error, context)));
  return [...new Set(sentences)];
}

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
  return full || (context === 'body' ? 'body' : (context ?? 'request'));
}

/** Human sentences for schema failures, e.g. "targets must contain at least 1 element". */
export function describeSchemaError(error: SchemaError, context?: string): string {
  const field = fieldName(context, error);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not an allowed property`;
    case 'minItems':
      return Number(p.limit) === 1 ? `${field} must contain at least one element` : `${field} must contain at least ${String(p.limit)} elements`;
    case 'maxItems':
      return `${field} must contain at most ${String(p.limit)} elements`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${field} must not be empty` : `${field} must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `${field} must be at most ${String(p.limit)} characters long`;
    case 'type':
      return `${field} must be ${String(p.type)
        .replace(/^(a|e|i|o|u)/, 'an $1')
        .replace(/^(?!an )/, 'a ')}`;
    case 'format':
      return `${field} must be a valid ${String(p.format)}`;
    case 'const':
    case 'enum':
      return `${field} must be one of: ${JSON.stringify(p.allowedValues ?? p.allowedValue)}`;
    case 'anyOf':
      return `${field} has an invalid value`;
    case 'minimum':
      return `${field} must be >= ${String(p.limit)}`;
    case 'maximum':
      return `${field} must be <= ${String(p.limit)}`;
    case 'pattern':
      return `${field} has an invalid format`;
    case 'maxProperties':
      return `${field} must have at most ${String(p.limit)} properties`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

import type { DocumentNode } from './document-node.ts';
/**
 * TypeBox writes `Type.Union([Type.Literal('a'), Type.Literal('b')])` as an `anyOf` of one-value
 * enums. Generators turn that into a union of single-literal types at best; one `enum` gives them
 * a proper enumeration. Only unions made of nothing but same-typed constants are merged.
 */
export function mergeConstantUnions<T>(document: T): T {
  visit(document);
  return document;
}

function constantOf(branch: unknown): { type: string; value: unknown } | undefined {
  if (typeof branch !== 'object' || branch === null) return undefined;
  const { type, enum: values, ...rest } = branch as { type?: unknown; enum?: unknown };
  if (typeof type !== 'string' || !Array.isArray(values) || values.length !== 1 || Object.keys(rest).length > 0) return undefined;
  return { type, value: values[0] };
}

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as DocumentNode;
  const branches = record.anyOf;
  if (Array.isArray(branches) && branches.length > 1) {
    const constants = branches.map(constantOf);
    const type = constants[0]?.type;
    if (type !== undefined && constants.every((constant) => constant?.type === type)) {
      delete record.anyOf;
      record.type = type;
      record.enum = constants.map((constant) => constant?.value);
    }
  }
  for (const value of Object.values(record)) visit(value);
}

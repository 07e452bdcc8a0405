import type { DocumentNode } from './document-node.ts';
import { RECORD_SCHEMAS } from '@crawl/contracts';

/**
 * Schemas that appear inside other answers (a file's rows, a list's items) rather than as a route's
 * own body, named as components so generated clients get `ProductRecord` (and each job type's record), not an anonymous type.
 */
const SHARED = new Map<string, object>(Object.values(RECORD_SCHEMAS).map((schema) => [schema.$id as string, schema]));

/** The shared schemas as plain JSON Schema components (their `$id` names them instead). */
export function sharedComponents(): DocumentNode {
  return Object.fromEntries(
    [...SHARED].map(([name, schema]) => {
      const { $id: _id, ...plain } = JSON.parse(JSON.stringify(schema)) as DocumentNode;
      return [name, plain];
    }),
  );
}

/** `schema` with every shared schema inside it replaced by a reference to its component. */
export function referencingShared(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(referencingShared);
  if (schema === null || typeof schema !== 'object') return schema;
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id === 'string' && SHARED.has(id)) return { $ref: `#/components/schemas/${id}` };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, referencingShared(value)]));
}

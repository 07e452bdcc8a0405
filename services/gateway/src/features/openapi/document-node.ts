/**
 * A part of the OpenAPI document as plain JSON (a schema, a response, a components map): built
 * from the route specs' schemas and written out, never read back field by field, so it stays open.
 */
export type DocumentNode = Record<string, unknown>;

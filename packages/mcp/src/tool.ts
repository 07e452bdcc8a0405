import type { CrawlClient } from '@crawl/sdk';
import type { Static, TObject } from '@sinclair/typebox';

/** What a tool's handler acts with: the caller's client and the project it works in. */
export interface ToolContext {
  client: CrawlClient;
  /** The project named in the input, else the server's default, else the caller's first project. */
  projectId(given: string | undefined): Promise<string>;
  signal: AbortSignal;
}

/**
 * One MCP tool. `input` is a TypeBox object: it is sent as the tool's JSON Schema in `tools/list`
 * (TypeBox schemas are JSON Schema) and checked before `run` is called.
 */
export interface CrawlTool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Reads only (no job, no credits, no change): clients may call it without asking. */
  readOnly: boolean;
  run(input: Static<S>, context: ToolContext): Promise<unknown>;
}

/** Keeps `run`'s input typed from `input`, while the list of tools holds them all alike. */
export function defineTool<S extends TObject>(tool: CrawlTool<S>): CrawlTool {
  return tool as unknown as CrawlTool;
}

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The tools the server lists, in order. */
export const TOOL_NAMES = [
  'search_products',
  'get_product',
  'create_job',
  'estimate_job',
  'job_status',
  'job_results',
  'export_job',
  'product_history',
  'keyword_ranks',
  'list_monitors',
  'create_monitor',
  'run_monitor',
  'list_projects',
];

/** A tool's answer as it came, text and all. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

/** A tool that must succeed: its JSON answer, parsed. */
export async function callJson<T = Record<string, any>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await callTool(client, name, args);
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return JSON.parse(textOf(result)) as T;
}

/** A tool that must fail as a tool error: its message. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await callTool(client, name, args);
  expect(result.isError, textOf(result)).toBe(true);
  return textOf(result);
}

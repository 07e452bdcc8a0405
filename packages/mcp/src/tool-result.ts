import { CrawlApiError, CrawlConnectionError } from '@crawl/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: the API's data as JSON text (what every client reads) and, for objects, as structured content. */
export function toolAnswer(value: unknown): CallToolResult {
  const text = JSON.stringify(value ?? null, null, 2);
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text }], ...structured };
}

/**
 * A failure the model can act on, as a tool error (`isError`), not a protocol error: the API's
 * status, code, message and details as it answered them. Anything else is a bug and is thrown.
 */
export function toolError(error: unknown): CallToolResult | undefined {
  if (error instanceof CrawlApiError) {
    const details = error.details.length > 0 ? `\n${JSON.stringify(error.details, null, 2)}` : '';
    return errorText(`${error.status} ${error.code}: ${error.message}${details}`);
  }
  if (error instanceof CrawlConnectionError) return errorText(error.message);
  if (error instanceof Error && error.name === 'TimeoutError') return errorText(error.message);
  return undefined;
}

export function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

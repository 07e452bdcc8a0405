import type { CrawlClient } from '@crawl/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Value } from '@sinclair/typebox/value';
import { crawlTools } from './crawl-tools.ts';
import { NoProjectError, projectResolver } from './project-resolver.ts';
import type { CrawlTool } from './tool.ts';
import { errorText, toolAnswer, toolError } from './tool-result.ts';

export interface CrawlMcpServerOptions {
  /** The project tools work in when the input names none (else the caller's first project). */
  projectId?: string;
  /** Where export_job's download links point (default the client's base URL). */
  downloadBaseUrl?: string;
  /** Told of a tool's failure that is not the API's answer (a bug), before it goes back as a protocol error. */
  onUnexpectedError?: (error: unknown, tool: string) => void;
}

const SERVER_INFO = { name: 'crawl-data-service', title: 'Crawl data service', version: '0.1.0' };
const INSTRUCTIONS =
  'Marketplace data (search results, product details, reviews, offers, best sellers, categories, sellers, autocomplete) crawled as jobs. ' +
  'Jobs cost credits: estimate_job says how many before create_job. search_products and get_product run a small job and wait for it.';

/**
 * An MCP server whose tools call the crawl data service through `client`, so they act as the
 * client's token's user and go through the public API only. Connect it to a transport (stdio,
 * Streamable HTTP) with `server.connect(transport)`.
 *
 * The tools are served through the SDK's request handlers (`tools/list`, `tools/call`) rather
 * than `registerTool`: that one takes Zod schemas in this SDK line, while the tools' inputs are
 * the routes' TypeBox schemas, which are JSON Schema already. Arguments are checked against the
 * same schemas here before a tool runs.
 */
export function createMcpServer(client: CrawlClient, options: CrawlMcpServerOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = crawlTools({ downloadBaseUrl: options.downloadBaseUrl });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const projectId = projectResolver(client, options.projectId);

  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describe) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return errorText(`Unknown tool ${request.params.name}; tools/list names them`);
    const input = request.params.arguments ?? {};
    const problems = [...Value.Errors(tool.input, input)].slice(0, 5);
    if (problems.length > 0) {
      return errorText(`Invalid arguments for ${tool.name}: ${problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`);
    }
    try {
      return toolAnswer(await tool.run(input, { client, projectId, signal: extra.signal }));
    } catch (error) {
      if (error instanceof NoProjectError) return errorText(error.message);
      const answer = toolError(error);
      if (answer) return answer;
      options.onUnexpectedError?.(error, tool.name);
      throw error;
    }
  });
  return server;
}

function describe(tool: CrawlTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // A TypeBox schema is JSON Schema; the round trip drops TypeBox's symbol keys.
    inputSchema: JSON.parse(JSON.stringify(tool.input)) as Tool['inputSchema'],
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: true },
  };
}

import { createMcpServer } from '@crawl/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import type { Action } from './action.ts';

interface McpOptions {
  project?: string;
}

/**
 * `crawl mcp`: an MCP server on stdin and stdout for an MCP client to start (docs/mcp.md). Its
 * tools act as the stored login. Stdout carries the protocol only: anything for people goes to
 * stderr. It ends when the client closes stdin.
 */
export function mcpCommand(program: Command, action: Action): void {
  program
    .command('mcp')
    .description('serve the API as MCP tools on stdin/stdout, for an MCP client (AI agents) to start; acts as your login')
    .option('--project <id>', 'the project tools work in when they name none (default: your first project)')
    .action(
      action(async (ctx: CliContext, _args, options: McpOptions) => {
        const client = ctx.client();
        const server = createMcpServer(client, {
          ...(options.project ? { projectId: options.project } : {}),
          onUnexpectedError: (error, tool) => ctx.io.stderr.write(`crawl mcp: ${tool} failed: ${error instanceof Error ? error.stack : String(error)}\n`),
        });
        const transport = new StdioServerTransport(ctx.io.stdin as NodeJS.ReadStream, ctx.io.stdout as NodeJS.WriteStream);
        const closed = new Promise<void>((resolve) => {
          transport.onclose = resolve;
        });
        await server.connect(transport);
        const end = () => void server.close();
        ctx.io.stdin.once('end', end);
        ctx.io.stdin.once('close', end);
        await closed;
      }),
    );
}

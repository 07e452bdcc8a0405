export { type CrawlMcpServerOptions, createMcpServer } from './create-mcp-server.ts';
export { crawlTools } from './crawl-tools.ts';
export type { CrawlTool, ToolContext } from './tool.ts';

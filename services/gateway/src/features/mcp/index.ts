export { MCP_PATH, mcpRoutes } from './mcp-routes.ts';

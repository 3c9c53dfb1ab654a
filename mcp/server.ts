// The proxy shop's MCP server over stdio: `npm run mcp`, or `npx proxy-shop-mcp` from this
// repository (mcp/bin.mjs). PROXY_SHOP_API_KEY (required) is the API key every tool call
// uses; PROXY_SHOP_URL (default http://127.0.0.1:4321) is the shop. stdout carries the
// protocol, so everything else goes to stderr.
import { ConfigError, readConfig, shopApi } from "./shop-api.ts";

try {
  const config = readConfig(process.env);
  // The SDK and the tools load only once the settings are right: a refusal is immediate.
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("./tools.ts"),
  ]);
  const server = createMcpServer(shopApi(config));
  await server.connect(new StdioServerTransport());
  console.error(`proxy-shop MCP server: ready on stdio, calling ${config.shopUrl}/api/v1`);
} catch (error) {
  console.error(error instanceof ConfigError ? `proxy-shop MCP server: ${error.message}` : error);
  process.exit(1);
}

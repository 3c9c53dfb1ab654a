#!/usr/bin/env node
// `npx proxy-shop-mcp` (package.json "bin"): runs mcp/server.ts through tsx, like the
// repository's other commands, from whatever directory the MCP client starts it in.
import { tsImport } from "tsx/esm/api";

await tsImport("./server.ts", import.meta.url);

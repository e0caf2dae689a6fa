// The demo `echo` tool (same behaviour as demo-servers/local-tools.ts) served over streamable HTTP,
// stateful sessions, SSE responses — the SDK's defaults — for bench:gateway's "direct HTTP" row.
// Run: PORT=N node --import tsx scripts/bench-http-echo.ts
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const sessions = new Map<string, StreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: "bench-echo", version: "0.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the given text unchanged.", inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

createServer(async (req, res) => {
  const sessionId = req.headers["mcp-session-id"];
  let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (transport) sessions.set(id, transport);
      },
    });
    await newServer().connect(transport);
  }
  await transport.handleRequest(req, res);
}).listen(Number(process.env.PORT ?? 3999), "127.0.0.1");

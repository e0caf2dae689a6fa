// bench:scale's downstream: ONE process serving many streamable-HTTP MCP servers, one per path
// /s/<index>/<tool count>/mcp, each with that many tools (one of them `echo`). Every server's
// catalog differs (its index is in the descriptions), as real servers' do.
//   POST /s/<index>/bump      changes one tool's description of that server (a catalog that changed)
//   GET  /received?text=T     when (epoch ms, sub-ms) an `echo` of T arrived here (texts marked "stamp-")
// Run: PORT=N node --import tsx scripts/bench-scale/mcp-host.ts
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

const sessions = new Map<string, StreamableHTTPServerTransport>();
const versions = new Map<number, number>();
/** echo texts marked "stamp-" → when they arrived (the approval part reads them) */
const received = new Map<string, number>();
const now = () => performance.timeOrigin + performance.now();

/** A tool definition of about the size real servers send (a sentence or two, three parameters). */
function toolsOf(index: number, count: number): Tool[] {
  const version = versions.get(index) ?? 0;
  const tools: Tool[] = [
    {
      name: "echo",
      description: "Returns the given text unchanged.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
  ];
  for (let k = 1; k < count; k++) {
    tools.push({
      name: `op_${String(k).padStart(2, "0")}`,
      description:
        `Operation ${k} of bench server ${index}${k === 1 && version > 0 ? ` (revision ${version})` : ""}: ` +
        "looks up records matching the query in this server's store and returns up to `limit` of them, " +
        "newest first, with their identifiers and a short summary of each.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What to look for (words, or an identifier)." },
          limit: { type: "integer", minimum: 1, maximum: 100, description: "How many records, at most." },
          fields: { type: "array", items: { type: "string" }, description: "Fields to include." },
        },
        required: ["query"],
      },
      annotations: { readOnlyHint: true },
    });
  }
  return tools;
}

function newServer(index: number, count: number): Server {
  const server = new Server({ name: `bench-${index}`, version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsOf(index, count) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name !== "echo") return { content: [{ type: "text", text: "ok" }] };
    const text = String(request.params.arguments?.text ?? "");
    if (text.startsWith("stamp-")) received.set(text, now());
    return { content: [{ type: "text", text }] };
  });
  return server;
}

createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://host");
  if (url.pathname === "/received") {
    const at = received.get(url.searchParams.get("text") ?? "");
    res.writeHead(at === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify({ at: at ?? null }));
    return;
  }
  const bump = /^\/s\/(\d+)\/bump$/.exec(url.pathname);
  if (bump && req.method === "POST") {
    const index = Number(bump[1]);
    versions.set(index, (versions.get(index) ?? 0) + 1);
    res.writeHead(204).end();
    return;
  }
  const route = /^\/s\/(\d+)\/(\d+)\/mcp$/.exec(url.pathname);
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const sessionId = req.headers["mcp-session-id"];
  let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
  if (!transport) {
    if (typeof sessionId === "string") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
      );
      return;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: the host should cost as little as it can beside what is measured.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, created);
      },
    });
    created.onclose = () => {
      if (created.sessionId) sessions.delete(created.sessionId);
    };
    transport = created;
    await newServer(Number(route[1]), Number(route[2])).connect(created);
  }
  await transport.handleRequest(req, res);
}).listen(Number(process.env.PORT ?? 3998), "127.0.0.1");

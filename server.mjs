// The Switchboard server: Next.js for the dashboard, server actions and the REST API, and the MCP
// gateway (/mcp, /mcp/servers/<name>) on a path of its own. `npm run serve` (after `next build`);
// HOST (default 127.0.0.1) and PORT (default 3000) say where it listens.
//
// Why not plain `next start`: Next.js's request pipeline costs a few milliseconds per request, more
// than a whole governed tool call, and MCP clients make many small requests. The gateway's entry
// (lib/gateway/http/entry.ts) is the same handler the /mcp route files use, behind the same
// Host/Origin/credential checks proxy.ts applies everywhere else; instrumentation.ts registers it
// from inside Next.js's module graph, so both share one database, pool and event hub.
import { createServer } from "node:http";
import next from "next";

const hostname = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);

const app = next({ dev: false, hostname, port });
const handleWithNext = app.getRequestHandler();
await app.prepare();

/** Set by instrumentation.ts once Next.js has started the runtime (lib/gateway/http/entry.ts); until then Next.js answers /mcp. */
const gatewayEntry = () => globalThis.__switchboardGatewayEntry;

const isGatewayPath = (url = "") => url === "/mcp" || url.startsWith("/mcp?") || url.startsWith("/mcp/");

const server = createServer((req, res) => {
  if (gatewayEntry() && isGatewayPath(req.url)) return gatewayEntry()(req, res);
  return handleWithNext(req, res);
});

server.on("error", (error) => {
  console.error(`[switchboard] cannot listen on ${hostname}:${port}: ${error.message}`);
  process.exit(1);
});

server.listen(port, hostname, () => {
  console.log(`[switchboard] listening on http://${hostname}:${port}`);
});

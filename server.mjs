// The Switchboard server: Next.js for the dashboard, server actions and the REST API, and the MCP
// gateway (/mcp, /mcp/servers/<name>) on a path of its own. `npm run serve` (after `next build`);
// HOST (default 127.0.0.1) and PORT (default 3000) say where it listens.
//
// Why not plain `next start`: Next.js's request pipeline costs a few milliseconds per request, more
// than a whole governed tool call, and MCP clients make many small requests. The gateway's entry
// (lib/gateway/http/entry.ts) is the same handler the /mcp route files use, behind the same
// Host/Origin/credential checks proxy.ts applies everywhere else; instrumentation.ts registers it
// from inside Next.js's module graph, so both share one database, pool and event hub.
//
// It is also the only part that sees the sockets, so it says who the client is (see
// lib/http/request-client.ts, which reads what this file writes): where it listens, and for each
// request the TCP peer and the forwarding headers the client sent, before Next.js adds its own.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import next from "next";
import pino from "pino";

// Before Next.js and lib/observability/log.ts exist: lines of the same shape, level and format
// (these two lines are the listening address and why it could not listen). A value lib/env.ts
// refuses falls back to the default here; the runtime's start-up says what is wrong with it.
const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
const wantedLevel = process.env.SWITCHBOARD_LOG_LEVEL?.trim().toLowerCase();
const logFormat =
  process.env.SWITCHBOARD_LOG_FORMAT?.trim() || (process.env.NODE_ENV === "development" ? "pretty" : "json");
const log = pino(
  {
    name: "switchboard",
    level: LOG_LEVELS.includes(wantedLevel) ? wantedLevel : "info",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  logFormat === "pretty"
    ? (await import("pino-pretty")).default({
        sync: true,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname,name",
      })
    : undefined,
);

const hostname = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);

/** lib/http/request-client.ts CONNECTION_HEADER: set here on every request, never taken from a client. */
const CONNECTION_HEADER = "x-switchboard-connection";

/** Set by instrumentation.ts once Next.js has started the runtime (lib/gateway/http/entry.ts); until then Next.js answers /mcp. */
const gatewayEntry = () => globalThis.__switchboardGatewayEntry;

const isGatewayPath = (url = "") => url === "/mcp" || url.startsWith("/mcp?") || url.startsWith("/mcp/");

/** Replaces whatever the client sent under CONNECTION_HEADER with what the socket says. */
function describeConnection(req) {
  const sent = Object.keys(req.headers);
  const value = encodeURIComponent(
    JSON.stringify({
      peer: req.socket.remoteAddress ?? null,
      forwardedHeaders: sent.filter((name) => name === "forwarded" || name.startsWith("x-forwarded-")),
      xForwardedFor: req.headers["x-forwarded-for"] ?? null,
      forwarded: req.headers.forwarded ?? null,
    }),
  );
  // Next.js reads headers, the gateway's web Request rawHeaders: both must say the same.
  const raw = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CONNECTION_HEADER)
      raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CONNECTION_HEADER, value);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  req.headers[CONNECTION_HEADER] = value;
}

let handleWithNext;
let ready;

/**
 * Each request's id, for the log lines written while it is handled (lib/observability/log.ts reads
 * this store): the client's X-Request-Id when it is a plain token — it is the client's, so only
 * letters, digits and . _ : - up to 128, never anything that could forge a log field — else a new
 * UUID; echoed in the response either way.
 */
const requestContext = new AsyncLocalStorage();
globalThis.__switchboardRequestContext = requestContext;
const requestIdOf = (sent) =>
  typeof sent === "string" && /^[\w.:-]{1,128}$/.test(sent) ? sent : randomUUID();

const server = createServer(async (req, res) => {
  describeConnection(req);
  const requestId = requestIdOf(req.headers["x-request-id"]);
  res.setHeader("x-request-id", requestId);
  await requestContext.run({ requestId }, async () => {
    await ready;
    if (gatewayEntry() && isGatewayPath(req.url)) return gatewayEntry()(req, res);
    return handleWithNext(req, res);
  });
});

// Node's default keeps an idle connection 5 s, so a client that reuses its connection after a pause
// of about that long (a load balancer, an SDK's agent, a test's request context) can send on a
// socket the server is closing and get ECONNRESET. Idle connections stay longer than the usual 60 s
// of a load balancer's idle timeout; the shutdown's server.close() ends idle ones at once.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// For the graceful shutdown (lib/runtime/shutdown.ts), which closes it once calls in flight are done.
globalThis.__switchboardHttpServer = server;

server.on("error", (error) => {
  log.fatal(`cannot listen on ${hostname}:${port}: ${error.message}`);
  process.exit(1);
});

ready = (async () => {
  // Listening first, so the addresses are known (lib/http/listening.ts) before Next.js and the
  // runtime start: nothing is ever judged from HOST. Requests wait for Next.js to be ready.
  await new Promise((resolve) => server.listen(port, hostname, resolve));
  const { address } = server.address();
  globalThis.__switchboardListening = { addresses: [address] };
  log.info(`listening on http://${hostname}:${port} (bound to ${address})`);
  const app = next({ dev: false, hostname, port });
  handleWithNext = app.getRequestHandler();
  await app.prepare();
})();

await ready;

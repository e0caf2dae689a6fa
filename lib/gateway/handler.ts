import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { isAppError, toAppError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/read-json";
import { log } from "@/lib/observability/log";
import { traceCarrierOf, traceRequest } from "@/lib/observability/traces";
import { getDatabase } from "@/lib/runtime/process-db";
import { getServerRuntime } from "@/lib/runtime/server-runtime";
import {
  isShuttingDown,
  SHUTDOWN_RETRY_AFTER_SECONDS,
  SHUTTING_DOWN_MESSAGE,
  STARTING_MESSAGE,
} from "@/lib/runtime/shutdown-state";
import { authenticateGateway, type GatewayPrincipal, GatewayRefusal } from "./auth";
import { buildGatewayServer } from "./server/server";
import type { GatewayScope } from "./server/tools";
import { gatewaySessions } from "./sessions/sessions";

/**
 * Switchboard as an MCP server (streamable HTTP), framework-free: a Web Request in, a Response out.
 *
 * Two ways to be answered, one set of handlers (gateway-server):
 * - A session: `initialize` opens one on this process (Mcp-Session-Id), bound to the principal and
 *   endpoint. It is what lets a downstream server reach the client while a call runs (sampling,
 *   elicitation, roots, log messages), and what `list_changed` and resource updates are sent to
 *   (GET opens its stream; DELETE ends it).
 * - One-shot (stateless): a request without a session id — or with one this process does not know
 *   (another replica's, or from before a restart) — gets its own server and transport. Everything
 *   an answer needs is in the database, so any replica behind a load balancer can answer it. GET
 *   and DELETE need the session itself: unknown, they answer 404 so the client starts a new one.
 *
 * Every request authenticates; a session only serves the principal and endpoint that opened it.
 * Host/Origin (DNS rebinding) are checked before this runs: by proxy.ts on Next.js's routes, by
 * http/entry.ts on the Switchboard server's own gateway path (server.mjs).
 */

export type GatewayOptions = { scope: GatewayScope };

/** Tool arguments can be large (documents, diffs); the SDK's own default bound. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function handleGatewayRequest(req: Request, options: GatewayOptions): Promise<Response> {
  const attributes = { "http.request.method": req.method, "url.path": new URL(req.url).pathname };
  return traceRequest("switchboard.gateway.request", traceCarrierOf(req.headers), attributes, () =>
    answerGatewayRequest(req, options),
  );
}

async function answerGatewayRequest(req: Request, options: GatewayOptions): Promise<Response> {
  if (!readEnv().mcpEnabled) {
    return jsonRpcError(404, -32000, "The MCP gateway is turned off here (SWITCHBOARD_MCP_ENABLED=false).");
  }
  // Every new request, session or not: a client (or its load balancer) tries another process.
  if (isShuttingDown()) {
    return jsonRpcError(503, -32000, SHUTTING_DOWN_MESSAGE, {
      "Retry-After": String(SHUTDOWN_RETRY_AFTER_SECONDS),
    });
  }
  try {
    const { db } = await getDatabase();
    const principal = await authenticateGateway(db, req.headers);
    const body = req.method === "POST" ? await readBody(req) : undefined;
    // Starting: server.mjs routes /mcp here once Next.js is up, before the connection pool runs. A
    // tool call now would be recorded and then fail; a 503 is retried elsewhere (or here, in a
    // moment). What needs only the database (initialize, lists) is answered as usual.
    if (!getServerRuntime() && callsATool(body)) {
      return jsonRpcError(503, -32000, STARTING_MESSAGE, {
        "Retry-After": String(SHUTDOWN_RETRY_AFTER_SECONDS),
      });
    }
    const sessionId = req.headers.get("mcp-session-id");
    const session = sessionId ? gatewaySessions.get(sessionId) : undefined;
    if (session) {
      switch (session.admits(principal, options.scope)) {
        case "other-principal":
          return jsonRpcError(403, -32001, "This session belongs to another principal.");
        case "other-endpoint":
          return jsonRpcError(404, -32001, "Session not found at this endpoint.");
        case "yes":
          return await session.handle(req, body);
      }
    }
    if (req.method !== "POST") {
      return sessionId
        ? jsonRpcError(404, -32001, "Session not found: send initialize to start a new one.")
        : jsonRpcError(405, -32000, "GET and DELETE need a session: send initialize (POST) first.", {
            Allow: "POST",
          });
    }
    if (isInitialize(body)) {
      const opened = await gatewaySessions.open(
        db,
        { principal, scope: options.scope, credentials: new Headers(req.headers) },
        req,
        body,
      );
      if (opened) return opened;
    }
    return await answerOnce(db, req, body, { principal, scope: options.scope });
  } catch (error) {
    return refusalResponse(error);
  }
}

/** A stateless request: its own server and transport, gone with the response. */
async function answerOnce(
  db: Database,
  req: Request,
  body: unknown,
  context: { principal: GatewayPrincipal; scope: GatewayScope },
): Promise<Response> {
  const server = buildGatewayServer(db, {
    ...context,
    session: undefined,
    signalFor: (extra) => AbortSignal.any([extra.signal, req.signal]),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    // A plain JSON answer is cheaper than an event stream; a stream only where progress may flow.
    enableJsonResponse: !mayStreamProgress(body),
  });
  await server.connect(transport);
  return transport.handleRequest(req, { parsedBody: body });
}

const readBody = (req: Request) => readJsonBody(req, MAX_BODY_BYTES);

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

function callsATool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | undefined)?.method === "tools/call");
}

/** A tools/call with a progress token is the one request that may have notices to stream. */
function mayStreamProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    if (!message || typeof message !== "object") return false;
    const { method, params } = message as {
      method?: unknown;
      params?: { _meta?: { progressToken?: unknown } };
    };
    return method === "tools/call" && params?._meta?.progressToken !== undefined;
  });
}

function refusalResponse(error: unknown): Response {
  if (error instanceof GatewayRefusal)
    return jsonRpcError(error.status, -32001, error.message, error.headers);
  const appError = toAppError(error);
  if (!isAppError(error) || appError.status >= 500) log.error({ err: error }, "gateway request failed");
  const code = appError.code === "validation" ? -32700 : -32000;
  return jsonRpcError(appError.status, code, appError.message);
}

/** Errors before any JSON-RPC message is handled have no request id to answer (JSON-RPC: id null). */
function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

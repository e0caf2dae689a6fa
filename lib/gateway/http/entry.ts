import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { toErrorBody } from "@/lib/errors";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { gatewayScopeOf } from "@/lib/gateway/server/tools";
import { checkRequest } from "@/lib/http/request-guard";
import { securityHeaders } from "@/lib/http/security-headers";
import { log } from "@/lib/observability/log";
import { traceCarrierOf, traceRequest } from "@/lib/observability/traces";
import { answerDirectly } from "./direct";
import { acceptHandOff, handOffToOwner } from "./hand-off";

/**
 * The gateway's own front door, for the Switchboard server (server.mjs): MCP requests answered
 * without Next.js's page and route machinery, which costs more per request than the whole governed
 * call. It is the same handler the /mcp route files use, behind the same Host/Origin/credential
 * checks proxy.ts applies to every other path. Registered on globalThis by instrumentation.ts, so
 * server.mjs reaches this module graph (and its process-wide state) without a second copy of it.
 */
export async function serveGatewayRequest(req: Request): Promise<Response> {
  const refusal = checkRequest(req);
  if (refusal) return Response.json({ error: toErrorBody(refusal) }, { status: refusal.status });
  const scope = gatewayScopeOf(new URL(req.url).pathname);
  if (!scope)
    return Response.json({ error: { code: "not_found", message: "No such MCP endpoint." } }, { status: 404 });
  return handleGatewayRequest(req, { scope });
}

// Web Request in, Response out (streams included), without replacing Node's global Request and
// Response classes, which Next.js uses too. A body gateway-direct already read (req.rawBody) is used as is.
const serveWebRequest = getRequestListener(serveGatewayRequest, { overrideGlobalObjects: false });

/**
 * The same front door on Node's own request and response: a plain tools/call is answered directly
 * (gateway-direct, the hot path); everything else goes to serveGatewayRequest.
 */
export function serveGatewayNodeRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // One trace per request, continuing the client's traceparent (lib/observability/traces).
  const attributes = { "http.request.method": req.method ?? "", "url.path": pathOf(req.url) };
  return traceRequest(
    "switchboard.gateway.request",
    traceCarrierOf(req.headers),
    attributes,
    async (span) => {
      await serveNodeRequest(req, res);
      span?.setAttribute("http.response.status_code", res.statusCode);
    },
  );
}

async function serveNodeRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Who the client is comes from server.mjs (lib/http/request-client), which saw the socket.
  // The headers every response carries, as next.config.ts gives them to the rest of the server.
  for (const { key, value } of securityHeaders) res.setHeader(key, value);
  try {
    const handedOff = acceptHandOff(req);
    if (handedOff === "refused") {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32001,
            message:
              "The x-switchboard-hand-off header did not verify. Only a Switchboard replica of this installation (same SWITCHBOARD_SECRET_KEY) sends it, for one request, within 30 s: send the request without it.",
          },
        }),
      );
      return;
    }
    // A session another replica holds is answered there; a handed-off request is never handed on.
    if (handedOff === "none" && (await handOffToOwner(req, res))) return;
    if (await answerDirectly(req, res)) return;
  } catch (error) {
    log.error({ err: error }, "gateway request failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } }));
    return;
  }
  await serveWebRequest(req, res);
}

/** The path without the query (a query is the client's, and may carry anything). */
const pathOf = (url = "/") => url.split("?", 1)[0] ?? "/";

/** A header added on the way in, seen both by gateway-direct (headers) and the web Request (rawHeaders). */
export function addRequestHeader(req: IncomingMessage, name: string, value: string): void {
  req.headers[name] = value;
  req.rawHeaders.push(name, value);
}

/** The key server.mjs looks the entry (serveGatewayNodeRequest) up under. */
export const GATEWAY_ENTRY = "__switchboardGatewayEntry";

export function registerGatewayEntry(): void {
  (globalThis as Record<string, unknown>)[GATEWAY_ENTRY] = serveGatewayNodeRequest;
}

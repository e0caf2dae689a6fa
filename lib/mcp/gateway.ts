import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { getDatabase } from "@/lib/db/process-db";
import { readEnv } from "@/lib/env";
import { isAppError, toAppError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/read-json";
import { authenticateGateway, type GatewayPrincipal, GatewayRefusal } from "./gateway-auth";
import { callThroughGateway } from "./gateway-call";
import { callMetaTool, isMetaTool, metaTools } from "./gateway-meta";
import type { ProgressSend } from "./gateway-progress";
import { registerResourceHandlers } from "./gateway-resources";
import { type GatewayScope, listGatewayTools, resolveGatewayName } from "./gateway-tools";

/**
 * Switchboard as an MCP server (streamable HTTP), framework-free: a Web Request in, a Response out.
 *
 * Stateless: every POST gets its own Server and transport, and everything it needs (principal,
 * grants, catalog, calls) is read from the database — so any replica behind a load balancer can
 * answer any request, with no session affinity. Without sessions there is nothing to stream on a
 * GET or to end with a DELETE: both answer 405, which the spec allows and SDK clients expect.
 *
 * Host/Origin (DNS rebinding) are checked before this runs, by proxy.ts for every path.
 */

export type GatewayOptions = { scope: GatewayScope };

const SERVER_INFO = { name: "switchboard", version: "0.1.0" };
/** Tool arguments can be large (documents, diffs); the SDK's own default bound. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export async function handleGatewayRequest(req: Request, options: GatewayOptions): Promise<Response> {
  const env = readEnv();
  if (!env.mcpEnabled) {
    return jsonRpcError(404, -32000, "The MCP gateway is turned off here (SWITCHBOARD_MCP_ENABLED=false).");
  }
  try {
    const { db } = await getDatabase();
    const principal = await authenticateGateway(db, req.headers);
    if (req.method !== "POST") {
      return jsonRpcError(405, -32000, "This gateway is stateless: send requests with POST.", {
        Allow: "POST",
      });
    }
    const body = await readJsonBody(req, MAX_BODY_BYTES);
    const server = buildGatewayServer(db, {
      principal,
      scope: options.scope,
      waitSeconds: env.mcpApprovalWaitSeconds,
      requestSignal: req.signal,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // A plain JSON answer is cheaper than an event stream; a stream only where progress may flow.
      enableJsonResponse: !mayStreamProgress(body),
    });
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  } catch (error) {
    return refusalResponse(error);
  }
}

function buildGatewayServer(
  db: Database,
  context: {
    principal: GatewayPrincipal;
    scope: GatewayScope;
    waitSeconds: number;
    requestSignal: AbortSignal;
  },
): Server {
  const { principal, scope } = context;
  const server = new Server(SERVER_INFO, {
    // Resources and prompts always declared: the lists are simply empty when nothing is permitted.
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions:
      "Switchboard: the tools you are granted on the MCP servers of this workspace. Some calls wait for a " +
      "person's approval; a result naming a call id can be collected with switchboard__wait_call.",
  });
  registerResourceHandlers(server, db, { principal, scope, signal: context.requestSignal });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // Returned as plain objects: nothing here goes through a schema library (see gateway-tools).
    tools: [
      ...metaTools,
      ...(await listGatewayTools(db, {
        tenantId: principal.tenantId,
        principalId: principal.principalId,
        scope,
      })),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args, _meta } = request.params;
    const token = _meta?.progressToken;
    const sendProgress: ProgressSend | undefined =
      token === undefined
        ? undefined
        : (progress: Progress) =>
            extra.sendNotification({
              method: "notifications/progress",
              params: { ...progress, progressToken: token },
            });
    // The client's cancellation (notifications/cancelled) or its going away cancels the call.
    const signal = AbortSignal.any([extra.signal, context.requestSignal]);
    if (isMetaTool(name)) {
      return callMetaTool(db, { principal, name, arguments: args, signal, sendProgress });
    }
    const gatewayName = await resolveGatewayName(db, { tenantId: principal.tenantId, scope, name });
    return callThroughGateway(db, {
      principal,
      gatewayName,
      arguments: args,
      signal,
      sendProgress,
      waitSeconds: context.waitSeconds,
    });
  });
  return server;
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
  if (!isAppError(error) || appError.status >= 500)
    console.error("[switchboard] gateway request failed", error);
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

import type { IncomingMessage, ServerResponse } from "node:http";
import { McpError, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readEnv } from "@/lib/env";
import { isAppError, toAppError } from "@/lib/errors";
import { authenticateGateway } from "@/lib/gateway/auth";
import { MAX_BODY_BYTES } from "@/lib/gateway/handler";
import { type CallerSend, gatewayCaller } from "@/lib/gateway/server/caller";
import { answerToolCall } from "@/lib/gateway/server/server";
import { type GatewayScope, gatewayScopeOf, gatewayToolsJson } from "@/lib/gateway/server/tools";
import type { GatewaySession } from "@/lib/gateway/sessions/session";
import { gatewaySessions } from "@/lib/gateway/sessions/sessions";
import { tooLarge } from "@/lib/http/read-json";
import { checkRequest } from "@/lib/http/request-guard";
import { log } from "@/lib/observability/log";
import { getDatabase } from "@/lib/runtime/process-db";
import { getServerRuntime } from "@/lib/runtime/server-runtime";
import { isShuttingDown } from "@/lib/runtime/shutdown-state";
import { type BufferedRequest, readNodeBody } from "./node-request";

/**
 * The gateway's hot path: a plain `tools/call` answered straight from Node's request and response,
 * as one JSON body — the same governed call (answerToolCall), without building a web Request,
 * running the SDK's transport and server, and streaming one event back. On these machines that
 * machinery cost more per call than the governed call itself (BENCHMARKS.md).
 *
 * Only a request that could need nothing more is taken here: one JSON-RPC `tools/call` with no
 * progress token, from a session whose client declared none of sampling, elicitation and roots
 * (nothing can be asked back mid-call) or from no session at all; and a `tools/list` without a
 * cursor, from any session, written from the principal's cached list as JSON made once (10,000
 * tools are ~5 MB, which the SDK's server and transport would validate and write again each time). A downstream log message during
 * such a call goes to the session's GET stream, as any message unrelated to a request would.
 * Everything else — and every request this path would have to refuse — is declined (false) and
 * answered by the full handler (gateway.ts), which gives the same answers and the same errors.
 */

/** What this path answers; anything else (batches, other methods, progress tokens) is declined. */
const plainToolCall = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number().int()]),
  method: z.literal("tools/call"),
  params: z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    _meta: z.looseObject({ progressToken: z.undefined() }).optional(),
  }),
});

/**
 * A tools/list of the first (and only) page: answered from the principal's cached list and its
 * JSON (lib/gateway/server/tools), never asks the client anything, so from any session.
 */
const plainToolList = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number().int()]),
  method: z.literal("tools/list"),
  params: z.looseObject({ cursor: z.undefined() }).optional(),
});

const plainRequest = z.discriminatedUnion("method", [plainToolCall, plainToolList]);

export async function answerDirectly(req: BufferedRequest, res: ServerResponse): Promise<boolean> {
  // Shutting down or still starting: the full handler answers the 503.
  if (req.method !== "POST" || !readEnv().mcpEnabled || isShuttingDown() || !getServerRuntime()) return false;
  if (!acceptsPlainJson(req)) return false;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return false;
  const protocolVersion = req.headers["mcp-protocol-version"];
  if (typeof protocolVersion === "string" && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
    return false;

  // Kept on the request (rawBody): the full handler uses it when this path declines.
  const body = await readNodeBody(req, MAX_BODY_BYTES);
  if (body === undefined) {
    const { message } = tooLarge(MAX_BODY_BYTES);
    respond(res, 413, { jsonrpc: "2.0", id: null, error: { code: -32000, message } });
    return true;
  }
  const message = parsePlainRequest(body);
  if (!message) return false;

  const headers = webHeaders(req);
  const scope = gatewayScopeOf(pathOf(req.url));
  if (!scope || checkRequest({ headers, url: `http://localhost${req.url ?? "/"}` })) return false;
  const sessionId = req.headers["mcp-session-id"];
  const session = typeof sessionId === "string" ? gatewaySessions.get(sessionId) : undefined;
  // Before authenticating: a declined request is authenticated again by the full handler.
  if (session && message.method === "tools/call" && !session.answersPlainly()) return false;
  let db: Awaited<ReturnType<typeof getDatabase>>["db"];
  let principal: Awaited<ReturnType<typeof authenticateGateway>>;
  try {
    ({ db } = await getDatabase());
    principal = await authenticateGateway(db, headers);
  } catch {
    return false; // refused or no database: the full handler says why
  }
  if (session && session.admits(principal, scope) !== "yes") return false;
  const sessionHeader: Record<string, string> = session ? { "mcp-session-id": session.id } : {};
  if (message.method === "tools/list") {
    await answerToolList(res, { db, principal, scope, session, id: message.id, headers: sessionHeader });
    return true;
  }

  const controller = new AbortController();
  const finish = session?.beginDirectCall(message.id, controller) ?? (() => {});
  // The client went away before its answer: the call is cancelled, as on the full path.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
    finish();
  });
  try {
    const result = await answerToolCall(
      db,
      { principal, scope },
      {
        name: message.params.name,
        arguments: message.params.arguments,
        meta: message.params._meta,
        signal: controller.signal,
        sendProgress: undefined,
        caller: gatewayCaller({
          session,
          capabilities: session?.server.getClientCapabilities(),
          send: sendersOf(session),
        }),
      },
    );
    respond(res, 200, { jsonrpc: "2.0", id: message.id, result }, sessionHeader);
  } catch (error) {
    // As the SDK server answers a handler that throws: a JSON-RPC error for this request — with the
    // code and data of one the handler meant for the client (a limit's retryAfter).
    if (error instanceof McpError) {
      const { code, message: text, data } = error;
      respond(
        res,
        200,
        { jsonrpc: "2.0", id: message.id, error: { code, message: text, data } },
        sessionHeader,
      );
      return true;
    }
    const appError = toAppError(error);
    if (!isAppError(error)) log.error({ err: error }, "gateway tool call failed");
    respond(
      res,
      200,
      { jsonrpc: "2.0", id: message.id, error: { code: -32603, message: appError.message } },
      sessionHeader,
    );
  }
  return true;
}

async function answerToolList(
  res: ServerResponse,
  params: {
    db: Awaited<ReturnType<typeof getDatabase>>["db"];
    principal: Awaited<ReturnType<typeof authenticateGateway>>;
    scope: GatewayScope;
    session: GatewaySession | undefined;
    id: string | number;
    headers: Record<string, string>;
  },
): Promise<void> {
  const { principal, session, id, headers } = params;
  const finish = session?.hold() ?? (() => {});
  try {
    const tools = await gatewayToolsJson(params.db, { ...principal, scope: params.scope });
    // Written around the shared JSON, which is never copied.
    const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":`);
    const tail = Buffer.from("}}");
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": head.byteLength + tools.byteLength + tail.byteLength,
      ...headers,
    });
    res.write(head);
    res.write(tools);
    res.end(tail);
  } catch (error) {
    // As the SDK server answers a handler that throws (the database went away, say).
    if (!isAppError(error)) log.error({ err: error }, "gateway tools/list failed");
    const { message } = toAppError(error);
    respond(res, 200, { jsonrpc: "2.0", id, error: { code: -32603, message } }, headers);
  } finally {
    finish();
  }
}

/** The streamable HTTP rule (Accept lists both) and a JSON body; otherwise the full handler refuses it. */
function acceptsPlainJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  const type = req.headers["content-type"] ?? "";
  return (
    accept.includes("application/json") &&
    accept.includes("text/event-stream") &&
    /^application\/json\s*(;|$)/i.test(type)
  );
}

/** The body, or undefined past MAX_BODY_BYTES (the rest is then drained unread). */
function parsePlainRequest(body: Buffer): z.infer<typeof plainRequest> | undefined {
  try {
    const parsed = plainRequest.safeParse(JSON.parse(body.toString("utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  return headers;
}

const pathOf = (url = "/") => {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
};

/**
 * How the downstream server reaches this call's client: never with a request (the client declared
 * nothing it could answer); log messages on the session's GET stream, when there is a session.
 */
function sendersOf(session: GatewaySession | undefined): CallerSend {
  return {
    sendRequest: () => Promise.reject(new Error("This tool call has no stream to ask its client on.")),
    sendNotification: (notification) =>
      session ? session.server.notification(notification) : Promise.resolve(),
  };
}

function respond(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Progress,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { SpanKind } from "@opentelemetry/api";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { isDiscoveryTool, SEARCH_TOOLS_TOOL } from "@/lib/gateway/discovery/definitions";
import { callDiscoveryTool } from "@/lib/gateway/discovery/discovery-tools";
import { withSpan } from "@/lib/observability/traces";
import { attachCaller, type CallerChannel } from "@/lib/upstream/caller-relay";
import { callThroughGateway, IDEMPOTENCY_META_KEY } from "./call";
import { gatewayCaller } from "./caller";
import { registerCompletionHandler } from "./completions";
import type { GatewayContext } from "./context";
import { callMetaTool, isMetaTool } from "./meta-tools";
import type { ProgressSend } from "./progress";
import { registerResourceHandlers } from "./resources";
import { registerSubscriptionHandlers } from "./subscriptions";
import {
  type GatewayScope,
  listGatewayTools,
  resolveGatewayName,
  serverOfScope,
  withSwitchboardTools,
} from "./tools";

/**
 * The gateway's MCP server: one per session, or one per stateless request. Everything it answers
 * is read from the database at the time of the request (principal, grants, catalog, calls), so a
 * session holds no answer that could go stale — only the client's declared capabilities and log level.
 */

const SERVER_INFO = { name: "switchboard", version: "0.1.0" };

export function buildGatewayServer(db: Database, context: GatewayContext): Server {
  const server = new Server(SERVER_INFO, {
    // Resources and prompts always declared: the lists are simply empty when nothing is permitted.
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
    instructions: instructionsFor(context.scope),
    // A burst of changes (a server re-registered, grants saved) is one notice per list.
    debouncedNotificationMethods: [
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
    ],
  });
  registerToolHandlers(server, db, context);
  registerResourceHandlers(server, db, context);
  registerCompletionHandler(server, db, context);
  registerSubscriptionHandlers(server, db, context);
  // Replaces the SDK's own handler: the level is the session's, and filters what the gateway relays.
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    if (context.session) context.session.logLevel = request.params.level;
    return {};
  });
  return server;
}

function instructionsFor(scope: GatewayScope): string {
  const approvals =
    "Some calls wait for a person's approval; a result naming a call id can be collected with switchboard__wait_call.";
  if (scope === "discover") {
    return (
      "Switchboard: the tools you are granted on the MCP servers of this workspace, found rather than listed. " +
      `Search them by what you want done with ${SEARCH_TOOLS_TOOL}, read one's schema with ` +
      `switchboard__describe_tool, run it with switchboard__call_tool. ${approvals}`
    );
  }
  return `Switchboard: the tools you are granted on the MCP servers of this workspace. ${approvals}`;
}

function registerToolHandlers(server: Server, db: Database, context: GatewayContext): void {
  const { principal, scope } = context;

  // Also answered by gateway-direct (lib/gateway/http/direct.ts), from the same cached list.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // Returned as plain objects: nothing here goes through a schema library (see gateway-tools).
    tools: withSwitchboardTools(
      scope,
      await listGatewayTools(db, { tenantId: principal.tenantId, principalId: principal.principalId, scope }),
    ),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args, _meta } = request.params;
    const token = _meta?.progressToken;
    const { session } = context;
    return answerToolCall(db, context, {
      name,
      arguments: args,
      meta: _meta,
      signal: context.signalFor(extra),
      sendProgress:
        token === undefined
          ? undefined
          : (progress: Progress) =>
              extra.sendNotification({
                method: "notifications/progress",
                params: { ...progress, progressToken: token },
              }),
      caller: gatewayCaller({
        session,
        capabilities: session ? server.getClientCapabilities() : undefined,
        send: extra,
      }),
    });
  });
}

/**
 * One tools/call of the gateway, however it arrived (through the SDK server here, or answered
 * directly by gateway-direct): a meta tool, or the governed path with the caller attached so the
 * downstream server's requests and log messages can reach it.
 */
export function answerToolCall(
  db: Database,
  context: Pick<GatewayContext, "principal" | "scope">,
  call: ToolCallRequest,
): Promise<CallToolResult> {
  // The client's `_meta.traceparent` (the MCP convention) names the trace; else the request's.
  const parent = {
    traceparent: metaString(call.meta, "traceparent"),
    tracestate: metaString(call.meta, "tracestate"),
  };
  return withSpan(
    "switchboard.tools_call",
    { "mcp.method.name": "tools/call", "switchboard.tool": call.name },
    async (span) => {
      const result = await answerGovernedToolCall(db, context, call);
      span?.setAttribute("switchboard.call.is_error", result.isError === true);
      return result;
    },
    { parent, kind: SpanKind.SERVER },
  );
}

const metaString = (meta: Record<string, unknown> | undefined, key: string) =>
  typeof meta?.[key] === "string" ? meta[key] : undefined;

type ToolCallRequest = {
  name: string;
  arguments: Record<string, unknown> | undefined;
  /** the request's `_meta`: where a client's idempotency key is (IDEMPOTENCY_META_KEY) */
  meta: Record<string, unknown> | undefined;
  signal: AbortSignal;
  sendProgress: ProgressSend | undefined;
  caller: CallerChannel;
};

async function answerGovernedToolCall(
  db: Database,
  context: Pick<GatewayContext, "principal" | "scope">,
  call: ToolCallRequest,
): Promise<CallToolResult> {
  const { principal, scope } = context;
  const { name, signal, sendProgress } = call;
  if (isMetaTool(name)) {
    return callMetaTool(db, { principal, name, arguments: call.arguments, signal, sendProgress });
  }
  const idempotencyKey = call.meta?.[IDEMPOTENCY_META_KEY];
  if (idempotencyKey !== undefined && typeof idempotencyKey !== "string") {
    return {
      content: [
        { type: "text", text: `_meta["${IDEMPOTENCY_META_KEY}"] must be a string (1–200 characters).` },
      ],
      isError: true,
    };
  }
  // Read per call, not per session: a changed setting applies to open sessions too.
  const defaultWaitSeconds = readEnv().mcpApprovalWaitSeconds;
  const run = (
    target: Omit<Parameters<typeof callThroughGateway>[1], "principal" | "signal" | "sendProgress">,
  ) => withCallerAttached(call, () => callThroughGateway(db, { ...target, principal, signal, sendProgress }));
  // Only where they are listed: on /mcp/servers/<name> the name is that server's own tool's.
  if (isDiscoveryTool(name) && serverOfScope(scope) === undefined) {
    return callDiscoveryTool(db, {
      principal,
      name,
      arguments: call.arguments,
      run: (target) =>
        run({ ...target, idempotencyKey, waitSeconds: target.waitSeconds ?? defaultWaitSeconds }),
    });
  }
  const gatewayName = await resolveGatewayName(db, { tenantId: principal.tenantId, scope, name });
  return run({ gatewayName, arguments: call.arguments, idempotencyKey, waitSeconds: defaultWaitSeconds });
}

/** Runs a governed call with the request's caller attached: the downstream's requests and log messages reach it. */
async function withCallerAttached<T>(call: ToolCallRequest, run: () => Promise<T>): Promise<T> {
  const detach = attachCaller(call.signal, call.caller);
  try {
    return await run();
  } finally {
    detach();
  }
}

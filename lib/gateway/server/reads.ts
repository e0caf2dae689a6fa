import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallDto } from "@/lib/calls/call-view";
import { executeCatalogRead } from "@/lib/calls/execute-catalog-read";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { log } from "@/lib/observability/log";
import { WAIT_CALL_TOOL } from "./results";

/**
 * A gateway resources/read or prompts/get: the governed path (executeCatalogRead) with the
 * principal as requester, answered with the server's result as stored (scrubbed and bounded, as a
 * tool's) — or, when it did not produce one, a JSON-RPC error that says why: the refusal's reason
 * (naming the grant it lacks), the failure, or the call id to collect once an approver decided.
 */
export async function readThroughGateway(
  db: Database,
  params: {
    principal: GatewayPrincipal;
    kind: "resource_read" | "prompt_get";
    serverId: string;
    /** the URI, or the prompt's own name */
    target: string;
    arguments?: Record<string, unknown>;
    signal: AbortSignal;
    waitSeconds: number;
  },
): Promise<Record<string, unknown>> {
  const { principal } = params;
  let answerEarly: (call: CallDto) => void = () => {};
  const outcome = new Promise<CallDto>((resolve) => {
    answerEarly = resolve;
  });
  const recorded = executeCatalogRead(db, {
    tenantId: principal.tenantId,
    requester: { kind: "principal", id: principal.principalId, name: principal.principalName },
    kind: params.kind,
    serverId: params.serverId,
    target: params.target,
    arguments: params.arguments,
    signal: params.signal,
    waitMs: params.waitSeconds * 1000,
    // The answer leaves as soon as the outcome is known; its write (already under way) follows.
    onOutcome: answerEarly,
  });
  let call: CallDto;
  try {
    call = await Promise.race([outcome, recorded]);
  } catch (error) {
    if (isAppError(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
    throw error;
  }
  recorded.catch((error: unknown) => {
    log.error({ err: error }, "recording a gateway read's outcome failed");
  });
  return resultOrError(call, params.waitSeconds);
}

function resultOrError(call: CallDto, waitedSeconds: number): Record<string, unknown> {
  const what = call.kind === "resource_read" ? `Reading ${call.tool}` : `Getting the prompt ${call.tool}`;
  switch (call.status) {
    case "succeeded": {
      // `truncated` is Switchboard's bookkeeping (the list already ends with a notice); not MCP's.
      const { truncated: _truncated, ...result } = call.result ?? {};
      return result;
    }
    case "denied":
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${what} was refused (call ${call.id}): ${call.approval?.reason ?? call.error?.message ?? call.approval?.requiredBecause ?? "no reason given"}`,
      );
    case "expired":
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${what} was not run (call ${call.id}): nobody decided on its approval before it expired.`,
      );
    case "cancelled":
      throw new McpError(ErrorCode.InvalidRequest, `${what} was cancelled (call ${call.id}).`);
    case "failed":
      throw new McpError(
        ErrorCode.InternalError,
        `${what} failed (call ${call.id}, ${call.error?.code ?? "error"}): ${call.error?.message ?? "no detail"}`,
      );
    case "pending_approval":
    case "approved":
    case "running":
      throw new McpError(
        ErrorCode.InternalError,
        `${what} (call ${call.id}) is still ${call.status === "pending_approval" ? "waiting for an approval" : "running"} after ${waitedSeconds} s. ` +
          `Collect its result with the ${WAIT_CALL_TOOL} tool, arguments {"callId": "${call.id}"}.`,
      );
  }
}

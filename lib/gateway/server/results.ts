import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallDto } from "@/lib/calls/call-view";
import { isAppError } from "@/lib/errors";

/**
 * A recorded call as an MCP tool result. A finished call gives the downstream result through
 * unchanged (content, structuredContent, isError — as stored: scrubbed and bounded); every other
 * outcome is a tool error whose text says what happened and, while the call is still open, how
 * to collect it — a model reads these, so they name the call id and the meta tool to use.
 */

export const GET_CALL_TOOL = "switchboard__get_call";
export const WAIT_CALL_TOOL = "switchboard__wait_call";

export function callToToolResult(call: CallDto, options: { waitedSeconds: number }): CallToolResult {
  switch (call.status) {
    case "succeeded":
      return downstreamResult(call);
    case "denied":
      return toolError(`Call ${call.id} to ${call.tool} was denied: ${denialReason(call)}`);
    case "expired":
      return toolError(
        call.error?.code === "not_started"
          ? `Call ${call.id} to ${call.tool} was not run: ${call.error.message}`
          : `Call ${call.id} to ${call.tool} was not run: nobody decided on its approval before it expired.`,
      );
    case "cancelled":
      return toolError(`Call ${call.id} to ${call.tool} was cancelled.`);
    case "failed":
      return toolError(
        `Call ${call.id} to ${call.tool} failed (${call.error?.code ?? "error"}): ${call.error?.message ?? "no detail"}${editedText(call)}`,
      );
    case "pending_approval":
    case "approved":
    case "running":
      return toolError(stillOpenText(call, options.waitedSeconds));
  }
}

export function stillOpenText(call: CallDto, waitedSeconds: number): string {
  const state =
    call.status === "pending_approval"
      ? "is still waiting for an approval"
      : call.status === "approved"
        ? "was approved and is about to run"
        : "is still running";
  return (
    `Call ${call.id} to ${call.tool} ${state} after ${waitedSeconds} s. ` +
    `Collect its outcome with the ${WAIT_CALL_TOOL} tool, arguments {"callId": "${call.id}"}.`
  );
}

/** A failed call an approver had edited: the model must not think its own arguments failed. */
function editedText(call: CallDto): string {
  const fields = call.argumentEdit?.editedFields;
  if (!call.argumentEdit) return "";
  const ran = JSON.stringify(call.arguments);
  return ` (An approver changed the arguments before approving it${fields?.length ? `: ${fields.join(", ")}` : ""}; it ran with ${ran.length > 500 ? `${ran.slice(0, 499)}…` : ran}.)`;
}

function denialReason(call: CallDto): string {
  return call.approval?.reason ?? call.error?.message ?? call.approval?.requiredBecause ?? "no reason given";
}

function downstreamResult(call: CallDto): CallToolResult {
  // `truncated` is Switchboard's bookkeeping (the content already ends with a notice); not MCP's.
  const { truncated: _truncated, ...result } = call.result ?? { content: [] };
  switch (call.kind) {
    case "tool_call":
      return { content: [], ...result } as CallToolResult;
    // A read collected with a meta tool (it waited for approval): its contents, as embedded resources.
    case "resource_read":
      return {
        content: ((result.contents as unknown[] | undefined) ?? []).map((resource) => ({
          type: "resource",
          resource,
        })),
      } as CallToolResult;
    case "prompt_get":
      return { content: [{ type: "text", text: JSON.stringify(result, null, 2) }] };
  }
}

/**
 * Text only: clients check any structuredContent against the tool's outputSchema, even on an
 * error (SDK 1.32.2), so the call id travels in the text, where a model reads it anyway.
 */
function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Refusals the caller can act on (no such tool, a name conflict, bad input) become tool errors. */
export function appErrorToToolResult(error: unknown): CallToolResult | undefined {
  if (!isAppError(error)) return undefined;
  if (!["not_found", "conflict", "validation", "forbidden", "policy_denied"].includes(error.code))
    return undefined;
  return { content: [{ type: "text", text: error.message }], isError: true };
}

/** JSON-RPC error code of a call refused over a limit (server-defined range, -32000 to -32099). */
export const RATE_LIMITED_ERROR_CODE = -32029;

/**
 * A call over a limit (lib/limits) is a JSON-RPC error, not a tool error: the client, not the
 * model, should back off — `data.retryAfter` says after how many seconds.
 */
export function rateLimitedToMcpError(error: unknown): McpError | undefined {
  if (!isAppError(error) || error.code !== "rate_limited") return undefined;
  return new McpError(RATE_LIMITED_ERROR_CODE, error.message, { retryAfter: error.retryAfterSeconds ?? 1 });
}

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isFinished } from "@/lib/calls/call-view";
import { getCall, waitForCall } from "@/lib/calls/read-calls";
import type { Database } from "@/lib/db/client";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { ProgressRelay, type ProgressSend } from "./progress";
import {
  appErrorToToolResult,
  callToToolResult,
  GET_CALL_TOOL,
  stillOpenText,
  WAIT_CALL_TOOL,
} from "./results";

/**
 * Switchboard's own tools, listed on every gateway endpoint: they let a client collect a call
 * that outlived its request (it waited for approval past the gateway's bound). A principal only
 * ever sees its own calls — another's call id is "not found", never a hint that it exists.
 */

export const MAX_WAIT_SECONDS = 120;
const DEFAULT_WAIT_SECONDS = 60;

const callIdProperty = { type: "string", description: "the call id a gateway tool result named" };

export const metaTools: Tool[] = [
  {
    name: GET_CALL_TOOL,
    title: "Get a Switchboard call",
    description:
      "Returns the state of one of your tool calls through Switchboard (status, approval, result when finished). Does not wait.",
    inputSchema: {
      type: "object",
      properties: { callId: callIdProperty },
      required: ["callId"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: WAIT_CALL_TOOL,
    title: "Wait for a Switchboard call",
    description: `Waits until one of your tool calls through Switchboard is finished (for example after it waited for an approval), at most timeoutSeconds (≤ ${MAX_WAIT_SECONDS}), and returns its result — or says it is still open.`,
    inputSchema: {
      type: "object",
      properties: {
        callId: callIdProperty,
        timeoutSeconds: {
          type: "integer",
          minimum: 1,
          maximum: MAX_WAIT_SECONDS,
          default: DEFAULT_WAIT_SECONDS,
          description: "how long to wait at most",
        },
      },
      required: ["callId"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

export const isMetaTool = (name: string) => name === GET_CALL_TOOL || name === WAIT_CALL_TOOL;

export async function callMetaTool(
  db: Database,
  params: {
    principal: GatewayPrincipal;
    name: string;
    arguments: Record<string, unknown> | undefined;
    signal: AbortSignal;
    sendProgress: ProgressSend | undefined;
  },
): Promise<CallToolResult> {
  const callId = params.arguments?.callId;
  if (typeof callId !== "string" || !callId.trim()) return invalid("callId (a string) is required.");
  const scope = {
    tenantId: params.principal.tenantId,
    reader: { kind: "principal" as const, principalId: params.principal.principalId },
    callId: callId.trim(),
  };
  try {
    if (params.name === GET_CALL_TOOL) {
      const { call, timeline } = await getCall(db, scope);
      return {
        content: [{ type: "text", text: JSON.stringify({ call, timeline }, null, 2) }],
        structuredContent: { call, timeline },
      };
    }
    const timeoutSeconds = readTimeout(params.arguments?.timeoutSeconds);
    if (timeoutSeconds === undefined)
      return invalid(`timeoutSeconds must be an integer from 1 to ${MAX_WAIT_SECONDS}.`);
    const relay = new ProgressRelay(params.sendProgress);
    relay.startHeartbeat(() => `waiting for call ${scope.callId}`);
    try {
      const call = await waitForCall(db, {
        ...scope,
        timeoutMs: timeoutSeconds * 1000,
        signal: params.signal,
      });
      if (isFinished(call.status)) return callToToolResult(call, { waitedSeconds: timeoutSeconds });
      // Still open is an answer, not a failure of this tool: the client just asks again.
      return {
        content: [{ type: "text", text: stillOpenText(call, timeoutSeconds) }],
        structuredContent: { callId: call.id, status: call.status },
      };
    } finally {
      relay.stop();
    }
  } catch (error) {
    const result = appErrorToToolResult(error);
    if (result) return result;
    throw error;
  }
}

function readTimeout(value: unknown): number | undefined {
  if (value === undefined) return DEFAULT_WAIT_SECONDS;
  if (typeof value !== "number" || !Number.isInteger(value)) return undefined;
  return value >= 1 && value <= MAX_WAIT_SECONDS ? value : undefined;
}

const invalid = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

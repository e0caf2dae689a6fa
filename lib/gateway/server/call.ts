import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { calls } from "@/db/schema";
import type { CallDto } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import type { Database } from "@/lib/db/client";
import type { RecordedEvent } from "@/lib/events/event-types";
import { subscribeEvents } from "@/lib/events/record-event";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { log } from "@/lib/observability/log";
import { ProgressRelay, type ProgressSend } from "./progress";
import { appErrorToToolResult, callToToolResult, rateLimitedToMcpError } from "./results";

/**
 * A gateway tools/call: the one governed path (executeToolCall) with the principal as requester.
 * While the call waits for an approval, the client gets "waiting for approval — call <id>"
 * progress notices (when it sent a progress token), so it keeps the request open; the wait is
 * bounded, and past it the answer names the call id and the meta tool that collects it.
 *
 * A client that may retry sends its own key in `_meta["switchboard/idempotencyKey"]`: a retry with
 * the same key (same principal, tool and arguments) — on any process, even after the one holding the
 * first request died — attaches to the call the key already names instead of making a second one.
 */

/** The `_meta` field of a tools/call that carries the client's idempotency key. */
export const IDEMPOTENCY_META_KEY = "switchboard/idempotencyKey";
export async function callThroughGateway(
  db: Database,
  params: {
    principal: GatewayPrincipal;
    gatewayName: string;
    arguments: Record<string, unknown> | undefined;
    /** the client's key (IDEMPOTENCY_META_KEY), when it sent one */
    idempotencyKey: string | undefined;
    signal: AbortSignal;
    sendProgress: ProgressSend | undefined;
    waitSeconds: number;
    /** the answer for the call's state when the request ends (default: callToToolResult) */
    answer?: (call: CallDto, waitedSeconds: number) => CallToolResult;
  },
): Promise<CallToolResult> {
  const { principal } = params;
  const relay = new ProgressRelay(params.sendProgress);
  // Without the client's, a key of our own makes this request's call recognisable among the
  // principal's others, so the heartbeat names the right call id even with several calls of one
  // tool in flight. Only then: a key costs the call path a look-up for an earlier call under it.
  const idempotencyKey = params.idempotencyKey ?? (relay.enabled ? `mcp-${crypto.randomUUID()}` : undefined);
  const stopWatching = relay.enabled
    ? watchForApproval(db, {
        principal,
        gatewayName: params.gatewayName,
        idempotencyKey: idempotencyKey ?? "",
        isRetry: params.idempotencyKey !== undefined,
        relay,
      })
    : () => {};
  const startedAt = Date.now();
  try {
    // The answer leaves as soon as the outcome is known; its write (already under way) follows.
    let answerEarly: (call: CallDto) => void = () => {};
    const outcome = new Promise<CallDto>((resolve) => {
      answerEarly = resolve;
    });
    const recorded = executeToolCall(db, {
      tenantId: principal.tenantId,
      requester: { kind: "principal", id: principal.principalId, name: principal.principalName },
      tool: params.gatewayName,
      arguments: params.arguments ?? {},
      idempotencyKey,
      signal: params.signal,
      onProgress: relay.enabled ? relay.downstream : undefined,
      waitMs: params.waitSeconds * 1000,
      onOutcome: answerEarly,
    });
    const call = await Promise.race([outcome, recorded]);
    recorded.catch((error: unknown) => {
      log.error({ err: error }, "recording a gateway call's outcome failed");
    });
    // The wait may end early (a shutdown answers waiting calls at once): say how long it really was.
    const waitedSeconds = Math.round((Date.now() - startedAt) / 1000);
    return params.answer ? params.answer(call, waitedSeconds) : callToToolResult(call, { waitedSeconds });
  } catch (error) {
    const result = appErrorToToolResult(error);
    if (result) return result;
    throw rateLimitedToMcpError(error) ?? error;
  } finally {
    stopWatching();
    relay.stop();
  }
}

/** Heartbeats from the moment this request's call needs approval until it is decided. */
function watchForApproval(
  db: Database,
  params: {
    principal: GatewayPrincipal;
    gatewayName: string;
    idempotencyKey: string;
    /** the client's key: its call may be waiting already (a retry), with no new event to announce it */
    isRetry: boolean;
    relay: ProgressRelay;
  },
): () => void {
  let callId: string | undefined;
  const adopt = (id: string) => {
    if (callId !== undefined) return;
    callId = id;
    params.relay.startHeartbeat(() => `waiting for approval — call ${id}`);
  };
  if (params.isRetry) {
    void findWaitingCall(db, params).then(
      (id) => id && adopt(id),
      () => {},
    );
  }
  const isCandidate = (event: RecordedEvent) =>
    event.type === "call.approval_required" &&
    event.tenantId === params.principal.tenantId &&
    event.requester.id === params.principal.principalId &&
    event.tool === params.gatewayName;
  return subscribeEvents((event) => {
    if (!("callId" in event)) return;
    if (callId === undefined && isCandidate(event)) {
      void isOwnCall(db, { ...params, callId: event.callId }).then((own) => own && adopt(event.callId));
    } else if (event.callId === callId && event.type !== "call.approval_required") {
      // Decided (approved, denied, expired, withdrawn): from here the downstream's progress counts.
      params.relay.stopHeartbeat();
    }
  });
}

async function isOwnCall(
  db: Database,
  params: { principal: GatewayPrincipal; idempotencyKey: string; callId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: calls.id })
    .from(calls)
    .where(
      and(
        eq(calls.tenantId, params.principal.tenantId),
        eq(calls.id, params.callId),
        eq(calls.idempotencyKey, params.idempotencyKey),
      ),
    );
  return row !== undefined;
}

/** The call the key already names, when it still waits for a decision. */
async function findWaitingCall(
  db: Database,
  params: { principal: GatewayPrincipal; idempotencyKey: string },
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: calls.id })
    .from(calls)
    .where(
      and(
        eq(calls.tenantId, params.principal.tenantId),
        eq(calls.requesterId, params.principal.principalId),
        eq(calls.idempotencyKey, params.idempotencyKey),
        eq(calls.status, "pending_approval"),
      ),
    );
  return row?.id;
}

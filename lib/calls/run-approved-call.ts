import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { type CallStatus, calls, mcpServers, tools } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { holdInFlight } from "@/lib/limits/in-flight";
import { log } from "@/lib/observability/log";
import { withSpan } from "@/lib/observability/traces";
import { getServerRuntime } from "@/lib/runtime/server-runtime";
import { shutdownGate } from "@/lib/runtime/shutdown-state";
import { joinCallerSignal } from "@/lib/upstream/caller-relay";
import type { CallToolOptions, ConnectionPool } from "@/lib/upstream/pool";
import { describeQuarantine } from "./call-decision";
import { type CallEventDetail, recordCallEvent } from "./call-events";
import { recordFinishedCall } from "./call-journal";
import { type CallErrorCode, type CallRow, type CallView, loadCallView } from "./call-view";
import { localWaiterOf } from "./local-waiters";
import { type BoundedResult, boundResult, resultListOf } from "./result-bounds";
import { scrubText } from "./scrub";
import { openSealedArguments } from "./sealed-arguments";
import { expireUnstartedCalls } from "./unstarted-calls";
import { cachedWorkspaceSecrets } from "./workspace-secrets";

/**
 * Runs a call that is approved — by policy at once, or by an operator later — on this process's
 * pooled connection. Any process may try (the caller waiting for it, the one that recorded the
 * approval, one that found its runner stopped); the conditional update approved → running lets
 * exactly one of them run it, and only before its start deadline: past it, the call is expired
 * instead (lib/calls/unstarted-calls.ts).
 * Returns the finished call's view when this process ran it; undefined when another process had
 * it, or it was not approved. A caller that just recorded the call (allowed at once) passes what
 * it already knows — its view and the target it checked a moment ago — so the run reads neither
 * back.
 */

type RunOptions = Pick<CallToolOptions, "signal" | "onProgress">;
type Outcome =
  | { kind: "result"; result: unknown; durationMs: number }
  | { kind: "error"; code: CallErrorCode; message: string; durationMs: number | null };
/** What the recorder of a call allowed at once knows: checked in the same request, not minutes ago. */
export type FreshCall = { view: CallView; target: { callTimeoutMs: number } };
/**
 * Told the finished call as soon as its outcome is known — before that is written — so a caller
 * (the gateway) can answer without waiting for the write; the run itself still resolves after it.
 */
export type OutcomeListener = (finished: CallView) => void;

export async function runApprovedCall(
  db: Database,
  params: { tenantId: string; callId: string; fresh?: FreshCall; onOutcome?: OutcomeListener } & RunOptions,
): Promise<CallView | undefined> {
  // Past its grace period this process would only end the call as interrupted: leave it approved
  // for a process that stays.
  if (shutdownGate.phase === "interrupted") return undefined;
  const now = new Date();
  const [claimed] = await db
    .update(calls)
    // Run by this process: its connection's name (see calls.runner).
    .set({ status: "running", startedAt: now, runner: sql`current_setting('application_name')` })
    .where(
      and(
        eq(calls.tenantId, params.tenantId),
        eq(calls.id, params.callId),
        eq(calls.status, "approved"),
        or(isNull(calls.startBy), gt(calls.startBy, now)),
      ),
    )
    .returning();
  if (!claimed) {
    // Not ours: run elsewhere, ended, or overdue — then nobody may run it, and it says so.
    await expireUnstartedCalls(db, { tenantId: params.tenantId, callIds: [params.callId] });
    return undefined;
  }
  // In flight on this process until it ends: the calls-in-flight limits count it (lib/limits).
  const release = holdInFlight(claimed.id, {
    tenantId: claimed.tenantId,
    requesterId: claimed.requesterId,
    serverId: claimed.serverId,
  });
  try {
    let view: CallView | undefined = params.fresh ? { ...params.fresh.view, call: claimed } : undefined;
    try {
      view ??= await loadCallView(db, { tenantId: claimed.tenantId, callId: claimed.id });
      if (view) await recordCallEvent(db, view, { type: "call.started" });
    } catch (error) {
      const outcome: Outcome = { kind: "error", ...internalFailure(claimed.id, error), durationMs: null };
      return await finishCall(db, claimed, view, outcome, params.onOutcome);
    }
    return await runClaimedCall(db, { ...params, call: claimed, view, target: params.fresh?.target });
  } finally {
    release();
  }
}

/**
 * Runs a call this process holds as `running` — claimed above, or on record as running at once
 * through the call journal — and records how it ended.
 */
export async function runClaimedCall(
  db: Database,
  params: {
    call: CallRow;
    view: CallView | undefined;
    target: { callTimeoutMs: number } | undefined;
    onOutcome?: OutcomeListener;
  } & RunOptions,
): Promise<CallView | undefined> {
  // In flight until its ending is written: a shutdown waits for it, up to its grace period.
  return shutdownGate.track(async () => {
    const { call } = params;
    const given = { ...localWaiterOf(call.id), ...definedOnly(params) };
    // The grace period ending stops the call like its caller would, but it ends as failed, saying why.
    const interruption = new AbortController();
    const stopListening = shutdownGate.on("interrupted", () => interruption.abort());
    const signal = joinCallerSignal(given.signal, interruption.signal);
    let outcome: Outcome;
    try {
      outcome = await invokeTool(db, call, { ...given, signal }, params.target);
    } catch (error) {
      outcome = { kind: "error", ...internalFailure(call.id, error), durationMs: null };
    } finally {
      stopListening();
    }
    if (interruption.signal.aborted && outcome.kind === "error")
      outcome = {
        kind: "error",
        code: "internal",
        message: INTERRUPTED_MESSAGE,
        durationMs: outcome.durationMs,
      };
    const recordOutcome = () => finishCall(db, call, params.view, outcome, params.onOutcome);
    return withSpan(
      "switchboard.record",
      {
        "switchboard.call.id": call.id,
        "switchboard.call.outcome": outcome.kind === "result" ? "result" : outcome.code,
      },
      recordOutcome,
    );
  }, "run");
}

/** Why a call cut off by a shutdown failed. */
export const INTERRUPTED_MESSAGE =
  "Switchboard shut down before this call finished (its grace period, SWITCHBOARD_SHUTDOWN_GRACE_SECONDS, ran out); the call was stopped. Whether the tool did part of its work is unknown: check before calling it again.";

async function invokeTool(
  db: Database,
  call: CallRow,
  options: RunOptions,
  checked: { callTimeoutMs: number } | undefined,
): Promise<Outcome> {
  const fail = (code: CallErrorCode, message: string): Outcome => ({
    kind: "error",
    code,
    message,
    durationMs: null,
  });
  // `checked`: looked up (quarantine included) by this request a moment ago.
  const target = checked
    ? { ...checked, serverEnabled: true, quarantinedAt: null, quarantineReason: null }
    : await findRunTarget(db, call);
  const what = call.kind === "tool_call" ? call.gatewayName : `the ${kindLabel(call)} of ${call.gatewayName}`;
  // Approval may have taken minutes: what an admin changed meanwhile still counts.
  if (!target) return fail("policy_denied", `${what} was disabled or removed before it could run.`);
  if (!target.serverEnabled) return fail("upstream_unavailable", `The server of ${what} is disabled.`);
  if (target.quarantinedAt)
    return fail(
      "policy_denied",
      describeQuarantine(call.gatewayName, { at: target.quarantinedAt, reason: target.quarantineReason }),
    );
  const runtime = await getServerRuntime();
  if (!runtime) return fail("upstream_unavailable", "The connection pool is not running in this process.");
  const args = call.sealedArguments
    ? openSealedArguments(call.sealedArguments, { tenantId: call.tenantId, callId: call.id })
    : call.arguments;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const attributes = {
      "switchboard.call.id": call.id,
      "switchboard.server.id": call.serverId ?? "",
      "switchboard.tool": call.gatewayName,
    };
    const result = await withSpan("switchboard.downstream_request", attributes, () =>
      askServer(runtime.pool, call, args, { ...options, timeoutMs: target.callTimeoutMs }),
    );
    return { kind: "result", result, durationMs: elapsed() };
  } catch (error) {
    if (options.signal?.aborted) {
      return {
        kind: "error",
        code: "cancelled",
        message: "The caller cancelled the call.",
        durationMs: elapsed(),
      };
    }
    return { kind: "error", ...describeFailure(error), durationMs: elapsed() };
  }
}

/** tools/call, resources/read or prompts/get on the pooled connection, by the call's kind. */
async function askServer(
  pool: ConnectionPool,
  call: CallRow,
  args: Record<string, unknown>,
  options: RunOptions & { timeoutMs: number },
): Promise<unknown> {
  const serverId = call.serverId ?? "";
  switch (call.kind) {
    case "tool_call":
      return pool.callTool(serverId, call.toolName, args, { ...options, callId: call.id });
    case "resource_read":
      return (await pool.getClient(serverId)).readResource(
        { uri: call.toolName },
        { signal: options.signal, timeout: options.timeoutMs },
      );
    case "prompt_get":
      return (await pool.getClient(serverId)).getPrompt(
        { name: call.toolName, arguments: args as Record<string, string> },
        { signal: options.signal, timeout: options.timeoutMs },
      );
  }
}

const kindLabel = (call: CallRow) => (call.kind === "resource_read" ? "resource read" : "prompt get");

/** The tool (or, for a read, the server) as it is now: enabled, live, and its server's call timeout. */
async function findRunTarget(db: Database, call: CallRow) {
  if (call.kind !== "tool_call") {
    const [server] = await db
      .select({ callTimeoutMs: mcpServers.callTimeoutMs, serverEnabled: mcpServers.enabled })
      .from(mcpServers)
      .where(and(eq(mcpServers.tenantId, call.tenantId), eq(mcpServers.id, call.serverId ?? "")));
    return server && { ...server, quarantinedAt: null, quarantineReason: null }; // tools only
  }
  const [target] = await db
    .select({
      callTimeoutMs: mcpServers.callTimeoutMs,
      serverEnabled: mcpServers.enabled,
      quarantinedAt: tools.quarantinedAt,
      quarantineReason: tools.quarantineReason,
    })
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(
        eq(tools.serverId, call.serverId ?? ""),
        eq(tools.name, call.toolName),
        eq(tools.enabled, true),
        isNull(tools.removedAt),
      ),
    );
  return target;
}

function describeFailure(error: unknown): { code: CallErrorCode; message: string } {
  if (!isAppError(error))
    return { code: "upstream_error", message: (error as Error)?.message ?? String(error) };
  switch (error.code) {
    case "timeout":
    case "upstream_unavailable":
    case "upstream_error":
    case "policy_denied":
      return { code: error.code, message: error.message };
    case "not_found":
      // The pool does not know the server (yet): it is not reachable from here.
      return { code: "upstream_unavailable", message: error.message };
    default:
      return { code: "upstream_error", message: error.message };
  }
}

async function finishCall(
  db: Database,
  call: CallRow,
  view: CallView | undefined,
  outcome: Outcome,
  onOutcome: OutcomeListener | undefined,
): Promise<CallView | undefined> {
  // Asked again, not reused from the start of the call: a secret written meanwhile is scrubbed too.
  const secrets = await cachedWorkspaceSecrets(db, { tenantId: call.tenantId });
  const status: CallStatus =
    outcome.kind === "result" ? "succeeded" : outcome.code === "cancelled" ? "cancelled" : "failed";
  const result: BoundedResult | null =
    outcome.kind === "result"
      ? boundResult(outcome.result, { secrets, list: resultListOf(call.kind) })
      : null;
  const ending = {
    status,
    result,
    errorCode: outcome.kind === "error" ? outcome.code : null,
    errorMessage: outcome.kind === "error" ? scrubText(outcome.message, secrets) : null,
    durationMs: outcome.durationMs,
    finishedAt: new Date(),
    sealedArguments: null,
  };
  // The answer leaves first; the ending's write follows (see recordFinishedCall).
  if (view && onOutcome) onOutcome({ ...view, call: { ...call, ...ending } });
  const event: CallEventDetail =
    outcome.kind === "result"
      ? { type: "call.succeeded", durationMs: outcome.durationMs, isError: result?.isError === true }
      : status === "cancelled"
        ? { type: "call.cancelled" }
        : { type: "call.failed", durationMs: outcome.durationMs, errorCode: outcome.code };
  if (view) {
    const finished = await recordFinishedCall(db, { view, ending, event });
    // Not running any more: ended elsewhere first (withdrawn, say); that ending stands.
    return finished ?? (await loadCallView(db, { tenantId: call.tenantId, callId: call.id }));
  }
  // No view of the call (reading it failed at the start): end it the slow way, read it back.
  await db
    .update(calls)
    .set(ending)
    .where(and(eq(calls.id, call.id), eq(calls.status, "running")));
  const after = await loadCallView(db, { tenantId: call.tenantId, callId: call.id });
  if (after) await recordCallEvent(db, after, event);
  return after;
}

/**
 * Logged without its message: a database error quotes its query parameters, which may hold the
 * call's arguments or result, and logs are never scrubbed after the fact.
 */
function internalFailure(callId: string, error: unknown): { code: CallErrorCode; message: string } {
  const kind = (error as { code?: unknown; name?: unknown })?.code ?? (error as Error)?.name ?? typeof error;
  log.error({ callId }, `call ${callId} failed inside Switchboard (${String(kind)})`);
  return { code: "internal", message: "The call failed inside Switchboard; the error has been logged." };
}

function definedOnly(options: RunOptions): RunOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
}

import { z } from "zod";
import { findMatchingAllowRule } from "@/lib/approvals/allow-rule-match";
import { withdrawPendingCall } from "@/lib/approvals/close-pending";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkCallLimits, type LimitRefusal, refusedOverLimit } from "@/lib/limits/call-limits";
import { withSpan } from "@/lib/observability/traces";
import { type ApprovalPolicy, getApprovalPolicy } from "@/lib/policy/approval-rules";
import { decisionCache } from "@/lib/policy/decision-cache";
import { assertAcceptingCalls, shutdownGate } from "@/lib/runtime/shutdown-state";
import type { CallToolOptions } from "@/lib/upstream/pool";
import { parseOrThrow } from "@/lib/validation";

import { awaitCall } from "./await-call";
import {
  authorizeRequester,
  type CallTarget,
  checkTargetUsable,
  type Decision,
  findCallTarget,
  firstRefusal,
  gateCall,
  loadGrants,
  refuseQuarantined,
} from "./call-decision";
import { recordRunningCall } from "./call-journal";
import { type CallDto, type CallView, isFinished, loadCallView, toCallDto } from "./call-view";
import { registerLocalWaiter } from "./local-waiters";
import { findRepeatedCall, type NewCall, recordCall } from "./record-call";
import type { Requester } from "./requester";
import { type FreshCall, runApprovedCall, runClaimedCall } from "./run-approved-call";
import { scrubValue } from "./scrub";
import { sealArguments } from "./sealed-arguments";
import { cachedWorkspaceSecrets } from "./workspace-secrets";

/**
 * THE one path of a tool call — REST, playground, gateway, CLI all come here, and nothing else
 * calls a downstream server's tools/call:
 *
 *   scrub → idempotency → authorize (grants | role) → resolve the tool → usable? → approval gate
 *   → (needs approval: an allow rule of the principal?) → record
 *   → run now (allowed) | wait for a decision, bounded by waitMs (needs approval) | stop (denied)
 *
 * Allowed calls run to completion before this returns (the server's call timeout bounds them);
 * `waitMs` only bounds waiting for an approval and the run after it. An aborted `signal` cancels
 * the call: withdrawn while it waits for a decision, aborted while it runs on this process.
 */

export type ExecuteToolCallParams = {
  tenantId: string;
  requester: Requester;
  /** the gateway name, `<server>__<tool>` */
  tool: string;
  arguments?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  onProgress?: CallToolOptions["onProgress"];
  /** how long to wait for an approval decision and the run after it; 0 (default) returns at once */
  waitMs?: number;
  /**
   * Told the outcome of a call that runs in this request as soon as it is known, before it is
   * written; the returned promise still resolves after the write. Lets the gateway answer sooner.
   */
  onOutcome?: (call: CallDto) => void;
};

const callRequestSchema = z.object({
  tool: z.string({ error: "tool is required." }).trim().min(1).max(200),
  arguments: z.record(z.string(), z.unknown(), { error: "arguments must be a JSON object." }).default({}),
  idempotencyKey: z.string().trim().min(1).max(200).optional(),
  waitMs: z.number().int().min(0).max(3_600_000).default(0),
});

export async function executeToolCall(db: Database, params: ExecuteToolCallParams): Promise<CallDto> {
  // A process shutting down takes no new call; one it took is in flight until its ending is written.
  assertAcceptingCalls();
  return shutdownGate.track(() => executeAcceptedToolCall(db, params));
}

async function executeAcceptedToolCall(db: Database, params: ExecuteToolCallParams): Promise<CallDto> {
  const request = parseOrThrow(callRequestSchema, params, "The tool call");
  const scope = { tenantId: params.tenantId, requester: params.requester };
  const secrets = await cachedWorkspaceSecrets(db, scope);
  const scrubbed = scrubValue(request.arguments, secrets);
  const callKey = { ...scope, gatewayName: request.tool, idempotencyKey: request.idempotencyKey };

  const repeated = await findRepeatedCall(db, { ...callKey, arguments: scrubbed });
  if (repeated) return followCall(db, params, repeated, { waitMs: request.waitMs, isOwnRequest: false });

  const callId = crypto.randomUUID();
  const { decision, policy, target, allowedByRule, overLimit, releaseInFlight } = await withSpan(
    "switchboard.policy_decision",
    { "switchboard.tool": request.tool },
    async (span) => {
      const gated = await decideCall(db, { ...scope, gatewayName: request.tool });
      const rule = await findAllowRule(db, {
        ...scope,
        gatewayName: request.tool,
        decision: gated.decision,
        scrubbed,
      });
      const decided: Decision = rule ? { kind: "allow" } : gated.decision;
      // Before the approval queue and the downstream server see it: a call over a limit is refused at once.
      const { refusal: over, release } = await checkCallLimits(db, {
        ...scope,
        callId,
        target: gated.target,
        decision: decided,
      });
      const final: Decision = over ? { kind: "deny", reason: over.reason, code: "rate_limited" } : decided;
      span?.setAttributes({
        "switchboard.decision": over ? "rate_limited" : final.kind,
        "switchboard.allowed_by_rule": rule !== undefined,
      });
      return { ...gated, decision: final, allowedByRule: rule, overLimit: over, releaseInFlight: release };
    },
  );
  // A call admitted to run now stays in flight (for the limits) until this request is done with it.
  try {
    return await recordAndFollow(db, params, {
      request,
      newCall: {
        ...callKey,
        id: callId,
        target,
        decision,
        arguments: scrubbed,
        sealedArguments: needsSealing(request.arguments, scrubbed)
          ? sealArguments(request.arguments, { tenantId: params.tenantId, callId })
          : null,
        expirySeconds: policy.expirySeconds,
        allowedByRule,
      },
      target,
      overLimit,
    });
  } finally {
    releaseInFlight();
  }
}

/** Records the decided call, then runs it, waits for its decision or reports its refusal. */
async function recordAndFollow(
  db: Database,
  params: ExecuteToolCallParams,
  decided: {
    request: z.infer<typeof callRequestSchema>;
    newCall: NewCall;
    target: CallTarget | undefined;
    overLimit: LimitRefusal | undefined;
  },
): Promise<CallDto> {
  const { request, newCall, target, overLimit } = decided;
  const { decision, allowedByRule, id: callId } = newCall;
  // A rule-allowed call is recorded as approved (naming its rule) and run like one; the journal's
  // fast start below writes no rule.
  if (decision.kind === "allow" && target && request.idempotencyKey === undefined && !allowedByRule) {
    // The common case, allowed at once: on record as running (call-journal), run here, no claim.
    const running = await withSpan("switchboard.record", { "switchboard.call.id": callId }, () =>
      recordRunningCall(db, newCall),
    );
    return runAllowedCall(db, params, running, target);
  }
  const { view, created } = await withSpan("switchboard.record", { "switchboard.call.id": callId }, () =>
    recordCall(db, newCall),
  );
  if (overLimit && created) throw refusedOverLimit(overLimit, view.call.id);
  return followCall(db, params, view, {
    waitMs: request.waitMs,
    isOwnRequest: created,
    // Checked in this request a moment ago: the run need not look the tool up again.
    target: created && target ? { callTimeoutMs: target.callTimeoutMs } : undefined,
  });
}

/**
 * authorize → resolve → classify + gate. The tool is looked up only for a caller allowed to call
 * it, so a refused caller learns nothing about what exists (and its attempt names no server).
 */
async function decideCall(
  db: Database,
  params: { tenantId: string; requester: Requester; gatewayName: string },
): Promise<{ decision: Decision; policy: ApprovalPolicy; target: CallTarget | undefined }> {
  const { tenantId, requester, gatewayName } = params;
  // Per process, dropped by the events of every change to them (lib/policy/decision-cache).
  const [grants, policy] = await Promise.all([
    loadGrants(db, params),
    decisionCache.get(tenantId, "approval-policy", () => getApprovalPolicy(db, params)),
  ]);
  const access = authorizeRequester(requester, grants, gatewayName);
  if (access.kind !== "allow") return { decision: access, policy, target: undefined };
  const target = await decisionCache.get(tenantId, `target:${gatewayName}`, () => findCallTarget(db, params));
  if (!target)
    throw new AppError("not_found", `There is no tool named ${params.gatewayName} in this workspace.`);
  refuseQuarantined(target);
  const decision = firstRefusal(
    () => checkTargetUsable(target),
    () => gateCall(target, policy),
  );
  return { decision, policy, target };
}

/**
 * Only a principal's call the gate held for approval — its grant already allowed it — may be let
 * through by an allow rule; the conditions see the scrubbed arguments, as the approver did.
 */
async function findAllowRule(
  db: Database,
  params: {
    tenantId: string;
    requester: Requester;
    gatewayName: string;
    decision: Decision;
    scrubbed: Record<string, unknown>;
  },
): Promise<string | undefined> {
  if (params.decision.kind !== "needs_approval" || params.requester.kind !== "principal") return undefined;
  return findMatchingAllowRule(db, {
    tenantId: params.tenantId,
    principalId: params.requester.id,
    gatewayName: params.gatewayName,
    arguments: params.scrubbed,
  });
}

/** What running and following a recorded call needs of its request (reads use them too). */
export type FollowParams = Pick<ExecuteToolCallParams, "tenantId" | "signal" | "onProgress" | "onOutcome">;

export async function runAllowedCall(
  db: Database,
  params: FollowParams,
  view: CallView,
  target: { callTimeoutMs: number },
): Promise<CallDto> {
  // Run right here and by nobody else: the caller's signal and progress go straight in.
  const finished = await runClaimedCall(db, {
    call: view.call,
    view,
    target: { callTimeoutMs: target.callTimeoutMs },
    signal: params.signal,
    onProgress: params.onProgress,
    onOutcome: outcomeListener(params),
  });
  return toCallDto(finished ?? view);
}

/** The caller's onOutcome, told the outcome as a CallDto. */
function outcomeListener(params: FollowParams) {
  const { onOutcome } = params;
  return onOutcome && ((ended: CallView) => onOutcome(toCallDto(ended)));
}

/** After recording: run it (allowed), wait for it (pending, running elsewhere), or report it (finished). */
export async function followCall(
  db: Database,
  params: FollowParams,
  view: CallView,
  options: { waitMs: number; isOwnRequest: boolean; target?: FreshCall["target"] },
): Promise<CallDto> {
  const { tenantId } = params;
  const callId = view.call.id;
  const unregister = options.isOwnRequest
    ? registerLocalWaiter(callId, { signal: params.signal, onProgress: params.onProgress })
    : () => {};
  try {
    if (view.call.status === "approved") {
      const fresh = options.target ? { view, target: options.target } : undefined;
      const ran = await runApprovedCall(db, {
        tenantId,
        callId,
        fresh,
        onOutcome: outcomeListener(params),
      });
      // Ran here to the end: its final state is known, nothing to wait for or read back.
      if (ran && isFinished(ran.call.status)) return toCallDto(ran);
    }
    let latest = await withSpan(
      "switchboard.approval_wait",
      { "switchboard.call.id": callId, "switchboard.call.status": view.call.status },
      async (span) => {
        const awaited = await awaitCall(db, {
          tenantId,
          callId,
          timeoutMs: options.waitMs,
          signal: params.signal,
        });
        span?.setAttribute("switchboard.call.outcome", awaited.call.status);
        return awaited;
      },
    );
    if (params.signal?.aborted && options.isOwnRequest && latest.call.status === "pending_approval") {
      await withdrawPendingCall(db, { tenantId, callId });
      latest = (await loadCallView(db, { tenantId, callId })) ?? latest;
    }
    return toCallDto(latest);
  } finally {
    unregister();
  }
}

export function needsSealing(original: Record<string, unknown>, scrubbed: Record<string, unknown>): boolean {
  return JSON.stringify(original) !== JSON.stringify(scrubbed);
}

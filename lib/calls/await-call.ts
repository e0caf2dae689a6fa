import { expireDueApprovals } from "@/lib/approvals/close-pending";
import type { Database } from "@/lib/db/client";
import { subscribeEvents } from "@/lib/events/record-event";
import { log } from "@/lib/observability/log";
import { shutdownGate } from "@/lib/runtime/shutdown-state";
import { type CallView, isFinished, loadCallView } from "./call-view";
import { runApprovedCall } from "./run-approved-call";

/**
 * Waits, up to `timeoutMs`, until a call is finished; returns its state at that moment either
 * way. No polling: the call's own events (recorded on any process) wake the wait, one timer
 * expires the approval when it falls due, and another ends the wait. Seeing the call approved,
 * the waiter offers to run it too — whichever process claims it first runs it, so an approval
 * recorded by a process that died right after still leads to a run. A process that starts shutting
 * down ends its waits at once with the call's state, so its callers learn the call id and follow
 * the call elsewhere instead of being cut off when the server closes.
 */
export async function awaitCall(
  db: Database,
  params: { tenantId: string; callId: string; timeoutMs: number; signal?: AbortSignal },
): Promise<CallView> {
  const { tenantId, callId } = params;
  return new Promise<CallView>((resolve, reject) => {
    let settled = false;
    let checking = false;
    let checkAgain = false;
    let offeredToRun = false;
    let expiryTimer: NodeJS.Timeout | undefined;
    let stopOnShutdown = () => {};

    const finish = (outcome: { view: CallView } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearTimeout(deadline);
      clearTimeout(expiryTimer);
      stopOnShutdown();
      params.signal?.removeEventListener("abort", onAbort);
      if ("view" in outcome) resolve(outcome.view);
      else reject(outcome.error);
    };
    const finishWithCurrent = () => {
      loadCallView(db, { tenantId, callId }).then(
        (view) => (view ? finish({ view }) : finish({ error: new Error(`The call ${callId} vanished.`) })),
        (error: unknown) => finish({ error }),
      );
    };

    const inspect = async () => {
      const view = await loadCallView(db, { tenantId, callId });
      if (!view) throw new Error(`The call ${callId} vanished.`);
      const { status } = view.call;
      if (isFinished(status)) return finish({ view });
      if (status === "approved" && !offeredToRun) {
        offeredToRun = true;
        runApprovedCall(db, { tenantId, callId }).catch((error: unknown) =>
          log.error({ callId }, `call ${callId}: could not start (${(error as Error).name})`),
        );
      }
      if (status === "pending_approval" && view.approval && !expiryTimer) armExpiry(view.approval.expiresAt);
    };
    const check = async () => {
      if (checking) {
        checkAgain = true;
        return;
      }
      checking = true;
      try {
        do {
          checkAgain = false;
          await inspect();
        } while (checkAgain && !settled);
      } catch (error) {
        finish({ error });
      } finally {
        checking = false;
      }
    };
    let expiryAttempts = 0;
    const armExpiry = (expiresAt: Date) => {
      // A timer can fire a millisecond before Date.now() reaches its due time, and the sweep then
      // finds nothing due yet; so after each attempt the next look arms the timer again (a little
      // later each time) instead of leaving the call pending until the wait's own deadline.
      const delay = Math.max(expiresAt.getTime() - Date.now(), 0) + expiryAttempts * 50;
      if (delay > params.timeoutMs) return;
      expiryTimer = setTimeout(() => {
        expiryAttempts += 1;
        expireDueApprovals(db, { tenantId, callIds: [callId] }).then(
          () => {
            expiryTimer = undefined;
            return check();
          },
          (error: unknown) => finish({ error }),
        );
      }, delay);
    };
    const onAbort = () => finishWithCurrent();

    // Subscribe before the first look, so a decision recorded in between is not missed.
    const unsubscribe = subscribeEvents((event) => {
      if (!settled && event.tenantId === tenantId && "callId" in event && event.callId === callId)
        void check();
    });
    const deadline = setTimeout(finishWithCurrent, params.timeoutMs);
    if (params.signal?.aborted) return onAbort();
    params.signal?.addEventListener("abort", onAbort, { once: true });
    stopOnShutdown = shutdownGate.on("draining", onAbort);
    void check();
  });
}

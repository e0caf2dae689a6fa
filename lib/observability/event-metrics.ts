import "server-only";
import type { RecordedEvent } from "@/lib/events/event-types";
import type { EventHub } from "@/lib/events/hub";
import { processSingleton } from "@/lib/process-singleton";
import { processMetrics, type SwitchboardMetrics } from "./metrics";

/**
 * Fills the metrics from the typed events, not from the call path: the hub tells us every event
 * this process recorded (EventHub.onRecorded), so each process counts its own calls and the
 * processes' counts add up in Prometheus. Durations come from the events themselves: a call's
 * events carry the times they describe (the journal dates them by the application's clock), and
 * call.succeeded / call.failed carry the downstream time.
 */

type CallEvent = Extract<RecordedEvent, { type: `call.${string}` }>;
type Times = { requestedAt?: number; heldAt?: number };

/** Calls whose start we remember, to time their end; bounded (oldest forgotten first). */
const MAX_TRACKED_CALLS = 10_000;

const started = processSingleton("EventMetrics", () => new WeakMap<EventHub, () => void>());

/** Starts counting `hub`'s events (idempotent per hub). Returns the stop function. */
export function startEventMetrics(hub: EventHub, metrics: SwitchboardMetrics = processMetrics()): () => void {
  const running = started.get(hub);
  if (running) return running;
  const times = new Map<string, Times>();
  const stopTap = hub.onRecorded((event) => {
    remember(times, event);
    observeEvent(metrics, times, event);
  });
  // A call held here may be decided in another process (and the reverse): its start is known
  // from the relay too, so the process that records the decision can time the wait.
  const stopFeed = hub.subscribe((event) => remember(times, event));
  const stop = () => {
    stopTap();
    stopFeed();
    started.delete(hub);
  };
  started.set(hub, stop);
  return stop;
}

function remember(times: Map<string, Times>, event: RecordedEvent): void {
  if (event.type !== "call.requested" && event.type !== "call.approval_required") return;
  const at = Date.parse(event.createdAt);
  const entry = times.get(event.callId) ?? {};
  if (event.type === "call.requested") entry.requestedAt ??= at;
  else entry.heldAt ??= at;
  times.set(event.callId, entry);
  if (times.size > MAX_TRACKED_CALLS) {
    const oldest = times.keys().next().value;
    if (oldest !== undefined) times.delete(oldest);
  }
}

export function observeEvent(
  metrics: SwitchboardMetrics,
  times: Map<string, Times>,
  event: RecordedEvent,
): void {
  metrics.events.inc({ type: event.type });
  switch (event.type) {
    case "call.approved":
      decided(metrics, times, event, "approved");
      return;
    case "call.denied":
      // decidedBy null: a policy refused it at once — no approval was ever asked for.
      if (event.decidedBy !== null) decided(metrics, times, event, "denied");
      ended(metrics, times, event, deniedOutcome(event));
      return;
    case "call.expired":
      decided(metrics, times, event, "expired");
      ended(metrics, times, event, "expired");
      return;
    case "call.cancelled":
      ended(metrics, times, event, "cancelled");
      return;
    case "call.succeeded":
      observeDownstream(metrics, event, event.durationMs);
      ended(metrics, times, event, event.isError ? "tool_error" : "succeeded");
      return;
    case "call.failed":
      observeDownstream(metrics, event, event.durationMs);
      ended(metrics, times, event, "failed");
      return;
    case "server.state_changed": {
      const server = { server: event.serverName };
      metrics.serverUp.set(server, event.to === "ready" || event.to === "degraded" ? 1 : 0);
      // The first attempt leaves "disconnected"; every other way into "connecting" is a retry.
      if (event.to === "connecting" && event.from !== "disconnected") metrics.reconnects.inc(server);
      if (event.to === "crash-loop" && event.from !== "crash-loop") metrics.crashLoops.inc(server);
      return;
    }
    case "server.deleted":
      metrics.serverUp.remove({ server: event.serverName });
      return;
    case "server.health_checked":
      if (event.ok && event.latencyMs !== null)
        metrics.healthCheck.observe({ server: event.serverName }, event.latencyMs / 1000);
      return;
    default:
      return;
  }
}

/** A call refused by a rate limit is stored as denied with the code rate_limited (lib/limits): its own outcome here as everywhere. */
function deniedOutcome(event: Extract<CallEvent, { type: "call.denied" }>): "denied" | "rate_limited" {
  return event.code === "rate_limited" ? "rate_limited" : "denied";
}

const serverOf = (event: CallEvent) => event.serverName ?? "none";

function decided(
  metrics: SwitchboardMetrics,
  times: Map<string, Times>,
  event: CallEvent,
  decision: "approved" | "denied" | "expired",
): void {
  metrics.approvalsDecided.inc({ decision });
  const heldAt = times.get(event.callId)?.heldAt;
  if (heldAt !== undefined)
    metrics.approvalWait.observe({ server: serverOf(event) }, seconds(Date.parse(event.createdAt) - heldAt));
}

function ended(
  metrics: SwitchboardMetrics,
  times: Map<string, Times>,
  event: CallEvent,
  outcome: string,
): void {
  const server = serverOf(event);
  metrics.calls.inc({
    server,
    tool: metrics.tools.valueOf(event.tool),
    // Operators (the playground) are people: their names stay out of the metrics.
    principal:
      event.requester.kind === "principal" ? metrics.principals.valueOf(event.requester.name) : "operator",
    outcome,
    effect: event.effect,
  });
  const requestedAt = times.get(event.callId)?.requestedAt;
  times.delete(event.callId);
  if (requestedAt !== undefined)
    metrics.callDuration.observe({ server, outcome }, seconds(Date.parse(event.createdAt) - requestedAt));
}

function observeDownstream(metrics: SwitchboardMetrics, event: CallEvent, durationMs: number | null): void {
  if (durationMs !== null) metrics.downstreamDuration.observe({ server: serverOf(event) }, durationMs / 1000);
}

// Clocks of two processes (or the database's) can disagree by a little: never a negative time.
const seconds = (ms: number) => Math.max(0, ms) / 1000;

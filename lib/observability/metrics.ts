import "server-only";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/lib/process-singleton";
import { LabelCap } from "./label-cap";
import { droppedSpans } from "./traces";

/**
 * The process's Prometheus metrics (docs/observability.md): one registry of our own (not
 * prom-client's global one, which any dependency could write to), the names all of #20 agreed on,
 * and the label caps. Metrics are created lazily, the first time something asks for them, so a
 * process with SWITCHBOARD_METRICS off pays nothing beyond this module's import.
 *
 * Each process counts what it did itself; Prometheus sums the processes (sum by (...)).
 */

/** Distinct principals and tools kept as label values per process, then "other" (documented). */
export const LABEL_CAP = 100;

const callSeconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
// Approvals are waited for by people: seconds to a day.
const approvalSeconds = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 14_400, 86_400];
// A statement: from a tenth of a millisecond (PGlite in process) to a lock held for seconds.
const querySeconds = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const probeSeconds = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A new set of metrics on a registry of its own; a process uses one (processMetrics), tests play several. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const on = { registers: [registry] };
  return {
    registry,
    principals: new LabelCap(LABEL_CAP),
    tools: new LabelCap(LABEL_CAP),
    calls: new Counter({
      name: "switchboard_calls_total",
      help: "Calls that ended, by server, tool, principal, outcome and effect.",
      labelNames: ["server", "tool", "principal", "outcome", "effect"] as const,
      ...on,
    }),
    callDuration: new Histogram({
      name: "switchboard_call_duration_seconds",
      help: "From the request to the end of a call (approval wait included).",
      labelNames: ["server", "outcome"] as const,
      buckets: callSeconds,
      ...on,
    }),
    downstreamDuration: new Histogram({
      name: "switchboard_call_downstream_duration_seconds",
      help: "Time the downstream server took to answer a call that ran.",
      labelNames: ["server"] as const,
      buckets: callSeconds,
      ...on,
    }),
    approvalWait: new Histogram({
      name: "switchboard_call_approval_wait_seconds",
      help: "From a call being held for approval to its decision (approved, denied or expired).",
      labelNames: ["server"] as const,
      buckets: approvalSeconds,
      ...on,
    }),
    approvalsPending: new Gauge({
      name: "switchboard_approvals_pending",
      help: "Approvals waiting for a decision, in every workspace (read from the database at each scrape: the same value from every process, so aggregate with max).",
      ...on,
    }),
    approvalsDecided: new Counter({
      name: "switchboard_approvals_decided_total",
      help: "Approvals decided, by decision (approved, denied, expired).",
      labelNames: ["decision"] as const,
      ...on,
    }),
    serverUp: new Gauge({
      name: "switchboard_server_up",
      help: "1 while this process's connection to the server is up (ready or degraded), else 0.",
      labelNames: ["server"] as const,
      ...on,
    }),
    reconnects: new Counter({
      name: "switchboard_server_reconnects_total",
      help: "Connection attempts after the first one (a lost or failed connection tried again).",
      labelNames: ["server"] as const,
      ...on,
    }),
    crashLoops: new Counter({
      name: "switchboard_server_crash_loops_total",
      help: "Times a server entered crash-loop (too many failures in the window).",
      labelNames: ["server"] as const,
      ...on,
    }),
    healthCheck: new Histogram({
      name: "switchboard_health_check_duration_seconds",
      help: "Round trip of a health probe that got an answer.",
      labelNames: ["server"] as const,
      buckets: probeSeconds,
      ...on,
    }),
    dbQueryDuration: new Histogram({
      name: "switchboard_db_query_duration_seconds",
      help: "Statements the application ran through its database layer, by operation (select, insert, update, delete, other); waiting for a pooled connection included.",
      labelNames: ["operation"] as const,
      buckets: querySeconds,
      ...on,
    }),
    sseSubscribers: new Gauge({
      name: "switchboard_sse_subscribers",
      help: "Event streams (GET /api/v1/events/stream) open on this process.",
      ...on,
    }),
    events: new Counter({
      name: "switchboard_events_total",
      help: "Events this process recorded, by type (rate() gives events/s).",
      labelNames: ["type"] as const,
      ...on,
    }),
    // Read at scrape time from the tracer: an unreachable collector shows here, never in call latency.
    spansDropped: new Counter({
      name: "switchboard_otel_spans_dropped_total",
      help: "Trace spans dropped (export queue full, or the OTLP collector failed or timed out).",
      ...on,
      collect() {
        this.reset();
        this.inc(droppedSpans());
      },
    }),
  };
}

export type SwitchboardMetrics = ReturnType<typeof createMetrics>;

const state = processSingleton("Metrics", () => ({ metrics: undefined as SwitchboardMetrics | undefined }));

/** The process's metrics, created on first use. */
export function processMetrics(): SwitchboardMetrics {
  state.metrics ??= createMetrics();
  return state.metrics;
}

/** The metrics if something created them: hot paths (SSE) touch nothing when metrics are off. */
function metricsCreated(): SwitchboardMetrics | undefined {
  return state.metrics;
}

/** Counts an open event stream until `closed` is called (once). Free when metrics are off. */
export function trackSseSubscriber(): () => void {
  const metrics = metricsCreated();
  if (!metrics) return () => {};
  metrics.sseSubscribers.inc();
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    metrics.sseSubscribers.dec();
  };
}

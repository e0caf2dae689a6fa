import type { ExportResult } from "@opentelemetry/core";
import { ExportResultCode } from "@opentelemetry/core";
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import {
  droppedSpans,
  injectTraceHeaders,
  startTracing,
  stopTracing,
  traceRequest,
  withSpan,
} from "@/lib/observability/traces";

/*
 * The tracer's own rules, with the SDK's in-memory exporter in place of OTLP: who controls the
 * incoming traceparent (anyone), what a full export queue does (drops and counts, never blocks).
 */

afterEach(async () => {
  await stopTracing();
});

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

describe("traces", () => {
  it("is off unless an endpoint is configured, and then runs the work untouched", async () => {
    expect(startTracing({ env: {} })).toBe(false);
    expect(
      startTracing({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" },
      }),
    ).toBe(false);
    expect(
      startTracing({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" },
      }),
    ).toBe(false);
    const headers = new Headers();
    const seen = await traceRequest(
      "request",
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
      {},
      async (span) => {
        injectTraceHeaders(headers);
        return span;
      },
    );
    expect(seen).toBeUndefined();
    expect(headers.has("traceparent")).toBe(false);
  });

  it("continues a valid traceparent and starts a new trace for a forged or malformed one", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing({ env: {}, exporter });
    const traceOf = (traceparent: string) =>
      traceRequest("request", { traceparent }, {}, async () => {
        const headers = new Headers();
        await withSpan("child", {}, async () => injectTraceHeaders(headers));
        return headers.get("traceparent") ?? "";
      });

    expect(await traceOf(`00-${TRACE_ID}-${PARENT_ID}-01`)).toMatch(
      new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`),
    );
    for (const bad of [
      "garbage",
      `00-${"0".repeat(32)}-${PARENT_ID}-01`, // an all-zero trace id is invalid
      `00-${TRACE_ID}-${PARENT_ID}-01${"x".repeat(10_000)}`,
      `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
    ]) {
      const traceparent = await traceOf(bad);
      expect(traceparent, bad.slice(0, 80)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(traceparent.split("-")[1], bad.slice(0, 80)).not.toBe(TRACE_ID);
    }
  });

  it("records a failure by its code, never its message", async () => {
    const exported: ReadableSpan[] = [];
    const exporter: SpanExporter = {
      export: (spans, done) => {
        exported.push(...spans);
        done({ code: ExportResultCode.SUCCESS });
      },
      shutdown: async () => {},
    };
    startTracing({ env: {}, exporter });
    const failure = Object.assign(new Error("the argument was secret-canary"), { code: "upstream_error" });
    await expect(withSpan("fails", {}, async () => Promise.reject(failure))).rejects.toBe(failure);
    await stopTracing();
    const [span] = exported;
    expect(span?.status).toEqual({ code: 2, message: "upstream_error" });
    expect(JSON.stringify(span?.events ?? [])).not.toContain("secret-canary");
  });

  it("drops and counts spans past the queue bound while the collector does not answer", async () => {
    const stuck: SpanExporter = {
      export: (_spans: ReadableSpan[], _done: (result: ExportResult) => void) => {},
      shutdown: async () => {},
    };
    startTracing({
      env: { OTEL_BSP_MAX_QUEUE_SIZE: "2", OTEL_BSP_SCHEDULE_DELAY: "60000" },
      exporter: stuck,
    });
    const before = droppedSpans();
    for (let i = 0; i < 5; i++) await withSpan(`work ${i}`, {}, async () => i);
    expect(droppedSpans() - before).toBe(3);
  });

  it("counts the spans of a failed export as dropped", async () => {
    const failing: SpanExporter = {
      export: (_spans, done) => done({ code: ExportResultCode.FAILED }),
      shutdown: async () => {},
    };
    startTracing({ env: {}, exporter: failing });
    const before = droppedSpans();
    await withSpan("lost", {}, async () => undefined);
    await stopTracing();
    expect(droppedSpans() - before).toBe(1);
  });
});

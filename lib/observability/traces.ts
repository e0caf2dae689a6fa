import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Attributes,
  type Context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  TraceFlags,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { type ExportResult, ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { processSingleton } from "@/lib/process-singleton";

/**
 * OpenTelemetry traces: one trace per gateway request and per REST call, with spans for
 * authentication, the policy decision, the record, the approval wait and the downstream request.
 *
 * Decided here:
 * - On only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 *   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it
 *   off). Off, every helper below runs its function and nothing else: no span, no context, no cost.
 * - Our own provider and context store, never the OTel globals: the global registration is
 *   once-per-process, and owning both lets start/stop be repeated (tests) without leaking state.
 * - Export is asynchronous and bounded (BatchSpanProcessor): an unreachable collector never slows
 *   or fails a call. A span that finds the queue full, or whose export fails, is dropped and
 *   counted (droppedSpans(), for the metrics).
 * - Attributes are names, ids, outcomes and durations only — never arguments or results, and
 *   never an error's message (it may quote either): a failed span carries the error's code.
 */

type Tracing = {
  provider: BasicTracerProvider;
  tracer: Tracer;
  /** spans handed to the batch processor and not yet exported (or failed) */
  queued: number;
  maxQueueSize: number;
};

const state = processSingleton("Tracing", () => ({ current: undefined as Tracing | undefined, dropped: 0 }));
/** The active trace context of the code running now (AsyncLocalStorage follows awaits). */
const active = processSingleton("TraceContext", () => new AsyncLocalStorage<Context>());
const propagator = new W3CTraceContextPropagator();

/** The standard OTel variables this module reads (a subset of process.env, for tests). */
export type TracingEnv = Partial<Record<string, string | undefined>>;

export function isTracingConfigured(env: TracingEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/**
 * Starts tracing when an endpoint is configured (at start, lib/runtime/start.ts); idempotent.
 * `exporter` replaces the OTLP exporter (tests). True when tracing runs.
 */
export function startTracing(options: { env?: TracingEnv; exporter?: SpanExporter } = {}): boolean {
  if (state.current) return true;
  const env = options.env ?? process.env;
  if (!options.exporter && !isTracingConfigured(env)) return false;
  const maxQueueSize = positiveInt(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048);
  const tracing: Tracing = { queued: 0, maxQueueSize } as Tracing;
  // The exporter reads the endpoint, headers, timeout and compression from the standard variables.
  const exporter = countingExporter(options.exporter ?? new OTLPTraceExporter(), tracing);
  const batch = new BatchSpanProcessor(exporter, {
    maxQueueSize,
    maxExportBatchSize: Math.min(positiveInt(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512), maxQueueSize),
    scheduledDelayMillis: positiveInt(env.OTEL_BSP_SCHEDULE_DELAY, 1000),
    exportTimeoutMillis: positiveInt(env.OTEL_BSP_EXPORT_TIMEOUT, 10_000),
  });
  tracing.provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME?.trim() || "switchboard" }),
    spanProcessors: [boundedProcessor(batch, tracing)],
  });
  tracing.tracer = tracing.provider.getTracer("switchboard");
  state.current = tracing;
  return true;
}

/** Exports what is queued and stops (the graceful shutdown, lib/runtime/shutdown.ts). */
export async function stopTracing(): Promise<void> {
  const tracing = state.current;
  if (!tracing) return;
  state.current = undefined;
  // A collector that is down must not fail the shutdown: what it lost is counted already.
  await tracing.provider.shutdown().catch(() => {});
}

export function isTracing(): boolean {
  return state.current !== undefined;
}

/** Spans dropped since the process started: the queue was full, or their export failed. */
export function droppedSpans(): number {
  return state.dropped;
}

/** What a request carries of an incoming trace: W3C `traceparent` (and `tracestate`). */
export type TraceCarrier = { traceparent?: string | null; tracestate?: string | null };

const carrierGetter: TextMapGetter<TraceCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key as keyof TraceCarrier];
    return typeof value === "string" ? value : undefined;
  },
};

/** The context an incoming traceparent names (a malformed one is ignored: a new trace starts). */
function contextFrom(carrier: TraceCarrier): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, carrierGetter);
}

/** The incoming trace headers of a request (Node's or the web's). */
export function traceCarrierOf(
  headers: Headers | Record<string, string | string[] | undefined>,
): TraceCarrier {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return typeof value === "string" ? value : undefined;
  };
  return { traceparent: read("traceparent"), tracestate: read("tracestate") };
}

/**
 * The server span of one incoming request, continuing the caller's trace when it sent one. Inside
 * a request span already (the gateway's Node front door handing a request to the full handler), no
 * second one: `fn` runs in the span there is.
 */
export function traceRequest<T>(
  name: string,
  carrier: TraceCarrier,
  attributes: Attributes,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const tracing = state.current;
  if (!tracing) return fn(undefined);
  const current = active.getStore();
  if (current && trace.getSpan(current)) return fn(trace.getSpan(current));
  return runSpan(tracing, name, { kind: SpanKind.SERVER, attributes }, contextFrom(carrier), fn);
}

/**
 * A span around `fn`, a child of the active one. `parent` (a `_meta.traceparent` of an MCP request)
 * puts it in the trace the client named instead; the request's own span is then linked.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span | undefined) => Promise<T>,
  options: { parent?: TraceCarrier; kind?: SpanKind } = {},
): Promise<T> {
  const tracing = state.current;
  if (!tracing) return fn(undefined);
  const current = active.getStore() ?? ROOT_CONTEXT;
  const explicit = options.parent?.traceparent ? contextFrom(options.parent) : undefined;
  const explicitSpan = explicit && trace.getSpan(explicit);
  const currentSpan = trace.getSpan(current);
  const links: Link[] =
    explicitSpan && currentSpan ? [{ context: currentSpan.spanContext(), attributes: {} }] : [];
  const parent = explicitSpan ? explicit : current;
  return runSpan(tracing, name, { kind: options.kind ?? SpanKind.INTERNAL, attributes, links }, parent, fn);
}

/** Attributes on the active span (an outcome known only at the end), when there is one. */
export function setSpanAttributes(attributes: Attributes): void {
  const current = active.getStore();
  if (current) trace.getSpan(current)?.setAttributes(attributes);
}

/** Adds `traceparent` (and `tracestate`) of the active span to a downstream HTTP request's headers. */
export function injectTraceHeaders(headers: Headers): void {
  const current = active.getStore();
  if (!current || !trace.getSpan(current)) return;
  propagator.inject(current, headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

/** The active span as MCP `_meta` fields (`traceparent`, `tracestate`), for a downstream request. */
export function traceMeta(): Record<string, string> {
  const current = active.getStore();
  if (!current || !trace.getSpan(current)) return {};
  const meta: Record<string, string> = {};
  propagator.inject(current, meta, {
    set: (carrier, key, value) => {
      carrier[key] = value;
    },
  });
  return meta;
}

async function runSpan<T>(
  tracing: Tracing,
  name: string,
  options: { kind: SpanKind; attributes: Attributes; links?: Link[] },
  parent: Context,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracing.tracer.startSpan(name, options, parent);
  try {
    const result = await active.run(trace.setSpan(parent, span), () => fn(span));
    return result;
  } catch (error) {
    // The code, not the message: a message may quote the arguments or the downstream's answer.
    const code = (error as { code?: unknown })?.code;
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === "string" ? code : "error" });
    throw error;
  } finally {
    span.end();
  }
}

/** Drops a span instead of queueing it past the bound, and counts it. */
function boundedProcessor(batch: SpanProcessor, tracing: Tracing): SpanProcessor {
  return {
    onStart: (span, context) => batch.onStart(span, context),
    onEnd: (span: ReadableSpan) => {
      // Not sampled (the caller's traceparent said so): the batch processor ignores it too.
      if (!(span.spanContext().traceFlags & TraceFlags.SAMPLED)) return;
      if (tracing.queued >= tracing.maxQueueSize) {
        state.dropped++;
        return;
      }
      tracing.queued++;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
}

/** Counts what left the queue, and what an export lost (a collector down, a timeout). */
function countingExporter(exporter: SpanExporter, tracing: Tracing): SpanExporter {
  return {
    export: (spans, done) =>
      exporter.export(spans, (result: ExportResult) => {
        tracing.queued = Math.max(0, tracing.queued - spans.length);
        if (result.code !== ExportResultCode.SUCCESS) state.dropped += spans.length;
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

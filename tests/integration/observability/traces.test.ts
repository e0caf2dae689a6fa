import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { tools } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { updateTool } from "@/lib/catalog/governed-tools";
import { droppedSpans, isTracing, startTracing, stopTracing } from "@/lib/observability/traces";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer } from "@/lib/servers/registry";
import { createTestAgent, drivers, openProcessTestDatabase } from "../../fixtures/databases";
import { eventually } from "../../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";
import { startTracedHttpServer, type TracedHttpServer } from "../../fixtures/mcp-servers/traced-http-server";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../fixtures/otlp-receiver";
import { bearer, sendTo } from "../../fixtures/route-request";

/*
 * Traces end to end, in-process: a real SDK-free HTTP client sends a gateway tools/call (with a W3C
 * traceparent) through the gateway's front door, the governed call path runs it on a real
 * streamable-HTTP downstream server, and the spans go over real OTLP/HTTP (JSON) to a collector
 * listening here. What an operator relies on: the spans land in the trace the client named, the
 * downstream server is handed the same trace, nothing of the arguments leaves in a span, and with
 * no endpoint configured nothing is traced at all.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const SERVER = "traced";
const CANARY = `canary-${randomBytes(8).toString("hex")}`;
const TRACE_ID = randomBytes(16).toString("hex");
const PARENT_ID = randomBytes(8).toString("hex");
const OTEL_VARIABLES = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_BSP_EXPORT_TIMEOUT",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_SERVICE_NAME",
];

function configureTracing(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) process.env[name] = value;
}

const withParent = (spans: ReceivedSpan[], name: string) => {
  const span = spans.find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(", ")}`);
  return span;
};

describe.each(drivers)("traces (%s, a streamable-HTTP downstream server)", (driver) => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let receiver: OtlpReceiver;
  let downstream: TracedHttpServer;
  let listener: GatewayListener;
  let agentKey: string;
  let gatewayName: string;
  let echoId: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    downstream = await startTracedHttpServer();
    handle = await openProcessTestDatabase(driver);
    const tenantId = handle.defaultTenant.id;
    runtime = new ServerRuntime(handle.db);
    await runtime.start();
    setServerRuntime(runtime);
    const server = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      input: { name: SERVER, transport: "streamable-http", url: downstream.url },
    });
    const [echo] = await eventually(async () => {
      const rows = await handle.db
        .select({ id: tools.id, gatewayName: tools.gatewayName })
        .from(tools)
        .where(and(eq(tools.serverId, server.id), isNull(tools.removedAt)));
      return rows.length > 0 ? rows : undefined;
    }, "the traced server's tool");
    if (!echo) throw new Error("no tool");
    // Read: runs at once, no approval.
    await updateTool(handle.db, { tenantId, id: echo.id, input: { effect: "read" } });
    gatewayName = echo.gatewayName;
    echoId = echo.id;
    agentKey = (
      await createTestAgent(handle.db, { tenantId, name: "traced-agent", patterns: [`${SERVER}__*`] })
    ).key;
    listener = await listenGateway();
  });
  afterEach(async () => {
    await stopTracing();
    for (const name of OTEL_VARIABLES) delete process.env[name];
  });
  afterAll(async () => {
    await listener?.close();
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
    await downstream?.close();
    await receiver?.close();
  });

  /** One plain tools/call of the echo tool through the gateway's front door, answered as JSON. */
  async function callEcho(headers: Record<string, string>, meta?: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${listener.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${agentKey}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: gatewayName, arguments: { text: CANARY }, ...(meta ? { _meta: meta } : {}) },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result?: { content?: Array<{ text?: string }> } };
    return body.result?.content?.[0]?.text ?? JSON.stringify(body);
  }

  it("continues the client's traceparent through every step and hands the trace to the downstream server", async () => {
    configureTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" });
    expect(startTracing()).toBe(true);
    const before = downstream.toolCalls.length;

    expect(await callEcho({ traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` })).toBe(CANARY);

    const expected = [
      "switchboard.gateway.request",
      "switchboard.authenticate",
      "switchboard.tools_call",
      "switchboard.policy_decision",
      "switchboard.record",
      "switchboard.downstream_request",
    ];
    // The outcome is written after the answer: its record span is the last to end.
    const spans = await eventually(async () => {
      const inTrace = receiver.spans.filter((span) => span.traceId === TRACE_ID);
      const records = inTrace.filter((span) => span.name === "switchboard.record");
      return expected.every((name) => inTrace.some((span) => span.name === name)) && records.length >= 2
        ? inTrace
        : undefined;
    }, "the call's spans at the collector");

    const request = withParent(spans, "switchboard.gateway.request");
    expect(request.parentSpanId).toBe(PARENT_ID);
    expect(request.serviceName).toBe("switchboard");
    expect(request.attributes).toMatchObject({ "url.path": "/mcp", "http.response.status_code": 200 });
    expect(withParent(spans, "switchboard.authenticate").parentSpanId).toBe(request.spanId);
    const toolCall = withParent(spans, "switchboard.tools_call");
    expect(toolCall.parentSpanId).toBe(request.spanId);
    expect(toolCall.attributes["switchboard.tool"]).toBe(gatewayName);
    expect(withParent(spans, "switchboard.policy_decision").attributes["switchboard.decision"]).toBe("allow");
    const downstreamSpan = withParent(spans, "switchboard.downstream_request");
    const callId = downstreamSpan.attributes["switchboard.call.id"];
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(spans.filter((span) => span.name === "switchboard.record").map((s) => s.attributes)).toEqual(
      expect.arrayContaining([expect.objectContaining({ "switchboard.call.outcome": "result" })]),
    );

    // The downstream server got the canary (so it was there to leak) and the trace, in the header
    // and in _meta, with the downstream span as parent.
    const [seen] = downstream.toolCalls.slice(before);
    expect(seen?.arguments).toEqual({ text: CANARY });
    expect(seen?.traceparent).toBe(`00-${TRACE_ID}-${downstreamSpan.spanId}-01`);
    expect(seen?.meta?.traceparent).toBe(seen?.traceparent);

    // Names, ids and outcomes only: the argument is in no span, attribute or event.
    expect(receiver.bodies.length).toBeGreaterThan(0);
    for (const body of receiver.bodies) expect(body).not.toContain(CANARY);
  });

  it("continues a traceparent sent in _meta (the MCP convention), linked to the request's own trace", async () => {
    configureTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" });
    startTracing();
    const metaTrace = randomBytes(16).toString("hex");
    const metaParent = randomBytes(8).toString("hex");
    const before = downstream.toolCalls.length;

    expect(await callEcho({}, { traceparent: `00-${metaTrace}-${metaParent}-01` })).toBe(CANARY);

    const toolCall = await eventually(
      async () =>
        receiver.spans.find((span) => span.traceId === metaTrace && span.name === "switchboard.tools_call"),
      "the tools/call span in the _meta trace",
    );
    expect(toolCall.parentSpanId).toBe(metaParent);
    const request = receiver.spans.find((span) => span.spanId === toolCall.links[0]?.spanId);
    expect(request?.name).toBe("switchboard.gateway.request");
    const [seen] = downstream.toolCalls.slice(before);
    expect(seen?.traceparent?.split("-")[1]).toBe(metaTrace);
  });

  it("traces a REST call the same way, from the route to the downstream server", async () => {
    configureTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" });
    startTracing();
    const restTrace = randomBytes(16).toString("hex");
    const before = downstream.toolCalls.length;

    const answer = await sendTo(postCallRoute, "/api/v1/calls", {
      method: "POST",
      headers: { ...bearer(agentKey), traceparent: `00-${restTrace}-${PARENT_ID}-01` },
      body: { tool: gatewayName, arguments: { text: CANARY } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.call.status).toBe("succeeded");

    const spans = await eventually(async () => {
      const inTrace = receiver.spans.filter((span) => span.traceId === restTrace);
      return inTrace.some((span) => span.name === "switchboard.rest.request") &&
        inTrace.some((span) => span.name === "switchboard.downstream_request")
        ? inTrace
        : undefined;
    }, "the REST call's spans");
    const request = withParent(spans, "switchboard.rest.request");
    expect(request.parentSpanId).toBe(PARENT_ID);
    expect(request.attributes).toMatchObject({
      "url.path": "/api/v1/calls",
      "http.response.status_code": 200,
    });
    expect(withParent(spans, "switchboard.authenticate").parentSpanId).toBe(request.spanId);
    expect(withParent(spans, "switchboard.policy_decision").parentSpanId).toBe(request.spanId);
    const [seen] = downstream.toolCalls.slice(before);
    expect(seen?.traceparent).toBe(
      `00-${restTrace}-${withParent(spans, "switchboard.downstream_request").spanId}-01`,
    );
    for (const body of receiver.bodies) expect(body).not.toContain(CANARY);
  });

  it("shows the wait for an approval as its own span, with the call it waited for", async () => {
    configureTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" });
    startTracing();
    const tenantId = handle.defaultTenant.id;
    // Destructive: held for approval by the default policy; nobody decides within the wait.
    await updateTool(handle.db, { tenantId, id: echoId, input: { effect: "destructive" } });
    try {
      const waitTrace = randomBytes(16).toString("hex");
      const answer = await sendTo(postCallRoute, "/api/v1/calls", {
        method: "POST",
        headers: { ...bearer(agentKey), traceparent: `00-${waitTrace}-${PARENT_ID}-01` },
        body: { tool: gatewayName, arguments: { text: CANARY }, waitSeconds: 0.2 },
      });
      expect(answer.status).toBe(202);
      const wait = await eventually(
        async () =>
          receiver.spans.find(
            (span) => span.traceId === waitTrace && span.name === "switchboard.approval_wait",
          ),
        "the approval wait span",
      );
      expect(wait.attributes).toMatchObject({
        "switchboard.call.id": answer.body.call.id,
        "switchboard.call.status": "pending_approval",
        "switchboard.call.outcome": "pending_approval",
      });
      const decision = receiver.spans.find(
        (span) => span.traceId === waitTrace && span.name === "switchboard.policy_decision",
      );
      expect(decision?.attributes["switchboard.decision"]).toBe("needs_approval");
      expect(
        receiver.spans.some((s) => s.traceId === waitTrace && s.name === "switchboard.downstream_request"),
      ).toBe(false);
    } finally {
      await updateTool(handle.db, { tenantId, id: echoId, input: { effect: "read" } });
    }
  });

  it("with no endpoint configured, traces nothing and sends no traceparent downstream", async () => {
    expect(startTracing()).toBe(false);
    expect(isTracing()).toBe(false);
    const before = downstream.toolCalls.length;
    const received = receiver.bodies.length;

    expect(await callEcho({ traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` })).toBe(CANARY);

    const [seen] = downstream.toolCalls.slice(before);
    expect(seen?.arguments).toEqual({ text: CANARY });
    expect(seen?.traceparent).toBeUndefined();
    expect(seen?.meta?.traceparent).toBeUndefined();
    expect(receiver.bodies.length).toBe(received);
  });

  it("an unreachable collector fails no call: its spans are dropped and counted", async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    configureTracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_BSP_EXPORT_TIMEOUT: "1000",
      OTEL_EXPORTER_OTLP_TIMEOUT: "1000",
    });
    expect(startTracing()).toBe(true);
    const dropped = droppedSpans();

    expect(await callEcho({ traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` })).toBe(CANARY);

    await eventually(async () => (droppedSpans() > dropped ? true : undefined), "the dropped spans counted");
  });
});

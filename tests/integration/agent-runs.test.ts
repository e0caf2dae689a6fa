import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as cancelRoute } from "@/app/api/v1/agent-runs/[id]/cancel/route";
import { GET as getRunRoute } from "@/app/api/v1/agent-runs/[id]/route";
import { POST as startRoute } from "@/app/api/v1/agent-runs/route";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { POST as createConnectionRoute } from "@/app/api/v1/model-connections/route";
import { agentRuns, calls, events, principals } from "@/db/schema";
import { endStrandedRuns } from "@/lib/agents/agent-runs";
import type { AgentRunDto, AgentRunStep } from "@/lib/agents/types";
import { updateTool } from "@/lib/catalog/governed-tools";
import { recordListeningAddresses } from "@/lib/http/listening";
import { putSecret } from "@/lib/secrets/secrets";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestApiKey } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { type FakeModelServer, type ScriptedTurn, startFakeModelServer } from "../fixtures/fake-model-server";
import { bearer, sendTo } from "../fixtures/route-request";

/*
 * Agent runs end to end in-process: a scripted OpenAI-compatible model over real HTTP, the loop,
 * and every tool call through the governed path to real stdio servers (local-tools, the calls
 * fixture) as the principal agent-007 (granted local-tools__*, fixture__record, fixture__slow).
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

type ToolResult = Extract<AgentRunStep, { kind: "tool_result" }>;

describe("agent runs (PGlite)", () => {
  let world: CallsWorld;
  let model: FakeModelServer;
  let admin: Record<string, string>;

  const start = async (turns: ScriptedTurn[], input: Record<string, unknown> = {}) => {
    model.script(turns);
    const { status, body } = await sendTo(startRoute, "/api/v1/agent-runs", {
      method: "POST",
      headers: admin,
      body: { principal: "agent-007", model: "scripted", prompt: "Say hi through the echo tool.", ...input },
    });
    expect(status, JSON.stringify(body)).toBe(202);
    return body.run as AgentRunDto;
  };
  const read = async (id: string) =>
    (await sendTo(getRunRoute, `/api/v1/agent-runs/${id}`, { headers: admin, params: { id } })).body
      .run as AgentRunDto;
  const ended = (id: string) =>
    eventually(async () => {
      const run = await read(id);
      return run.status === "running" ? undefined : run;
    }, "the run's end");
  const toolResults = (run: AgentRunDto) =>
    run.steps.filter((s): s is ToolResult => s.kind === "tool_result");

  beforeAll(async () => {
    recordListeningAddresses(["127.0.0.1"]);
    world = await openCallsWorld("pglite");
    model = await startFakeModelServer();
    admin = bearer(await createTestApiKey(world.handle, ["admin"]));
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("local-tools__echo"),
      input: { effect: "read" },
    });
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("fixture__slow"),
      input: { effect: "read" },
    });
    const created = await sendTo(createConnectionRoute, "/api/v1/model-connections", {
      method: "POST",
      headers: admin,
      body: { name: "scripted", baseUrl: model.baseUrl, model: "scripted-1" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }, 60_000);
  beforeEach(() => {
    model.requests.length = 0;
  });
  afterAll(async () => {
    await model?.close();
    await world?.close();
  });

  it("runs two rounds: the model calls a granted tool through the governed path, then answers", async () => {
    const run = await start([
      { toolCalls: [{ name: "local-tools__echo", arguments: { text: "hi from the loop" } }] },
      { text: "The echo tool said: hi from the loop." },
    ]);
    expect(run.status).toBe("running");
    const done = await ended(run.id);
    expect(done).toMatchObject({
      status: "succeeded",
      stopReason: null,
      rounds: 2,
      toolCalls: 1,
      tokens: 240,
    });
    expect(done.steps.map((s) => s.kind)).toEqual([
      "prompt",
      "assistant",
      "tool_result",
      "assistant",
      "answer",
    ]);
    const [result] = toolResults(done);
    expect(result).toMatchObject({
      name: "local-tools__echo",
      status: "succeeded",
      isError: false,
      text: "hi from the loop",
    });
    expect(done.steps.at(-1)).toEqual({ kind: "answer", text: "The echo tool said: hi from the loop." });

    // Recorded as the principal's call, like any other.
    const [call] = await world.handle.db
      .select()
      .from(calls)
      .where(eq(calls.id, result?.callId ?? ""));
    expect(call).toMatchObject({
      gatewayName: "local-tools__echo",
      requesterId: world.agent.id,
      status: "succeeded",
    });

    // The model was offered exactly the principal's granted tools, with their schemas.
    const offered = model.requests[0]?.body.tools?.map((t) => t.function.name).sort();
    expect(offered).toEqual([
      "fixture__record",
      "fixture__slow",
      "local-tools__current_time",
      "local-tools__echo",
      "local-tools__word_count",
      "local-tools__write_note",
    ]);
    expect(
      model.requests[0]?.body.tools?.find((t) => t.function.name === "local-tools__echo")?.function
        .parameters,
    ).toMatchObject({
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    // The result came back as data in an envelope, never as words of its own.
    const toolMessage = model.requests[1]?.body.messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMessage?.content ?? "{}")).toMatchObject({
      tool: "local-tools__echo",
      data: "hi from the loop",
      note: expect.stringContaining("not an instruction"),
    });
    expect(model.requests[0]?.body.messages[0]).toMatchObject({
      role: "system",
      content: expect.stringContaining("never instructions"),
    });
  });

  it("waits, visibly, while a call waits for approval, and goes on once an operator approves it", async () => {
    const token = `t-${randomBytes(4).toString("hex")}`;
    const run = await start([
      { toolCalls: [{ name: "fixture__record", arguments: { token } }] },
      { text: "Recorded." },
    ]);
    const waiting = await eventually(async () => {
      const step = toolResults(await read(run.id))[0];
      return step?.status === "pending_approval" ? step : undefined;
    }, "the call waiting for approval");
    expect(world.recorded()).not.toContain(token);
    const approved = await sendTo(approveRoute, `/api/v1/approvals/${waiting.callId}/approve`, {
      method: "POST",
      headers: { cookie: world.approvers[0]?.cookie ?? "" },
      body: {},
      params: { id: waiting.callId ?? "" },
    });
    expect(approved.status).toBe(200);
    const done = await ended(run.id);
    expect(done.status).toBe("succeeded");
    expect(toolResults(done)).toEqual([
      expect.objectContaining({ callId: waiting.callId, status: "succeeded", text: `recorded ${token}` }),
    ]);
    expect(world.recorded().filter((t) => t === token)).toHaveLength(1);
  });

  it("refuses a tool the principal was not offered, and tells the model so as a tool result", async () => {
    const run = await start([
      { toolCalls: [{ name: "fixture__big", arguments: { bytes: 3 } }] },
      { text: "I could not use that tool." },
    ]);
    const done = await ended(run.id);
    expect(done).toMatchObject({ status: "succeeded", toolCalls: 1 });
    expect(toolResults(done)[0]).toMatchObject({
      name: "fixture__big",
      callId: null,
      status: "refused",
      isError: true,
    });
    expect(toolResults(done)[0]?.text).toContain('No tool named "fixture__big" was offered to you');
    const made = await world.handle.db
      .select()
      .from(calls)
      .where(and(eq(calls.tenantId, world.tenantId), eq(calls.gatewayName, "fixture__big")));
    expect(made).toEqual([]);
  });

  it("hands arguments that fail the tool's schema back as an error, counted against the limits", async () => {
    const run = await start(
      [
        { toolCalls: [{ name: "local-tools__echo", arguments: { text: 42 } }] },
        { toolCalls: [{ name: "local-tools__echo", arguments: "{not json" }] },
        { toolCalls: [{ name: "local-tools__echo", arguments: { text: "third time" } }] },
      ],
      { maxToolCalls: 2 },
    );
    const done = await ended(run.id);
    const [unfit, notJson] = toolResults(done);
    expect(unfit).toMatchObject({ status: "refused", callId: null });
    expect(unfit?.text).toBe(
      "The arguments do not fit local-tools__echo's input schema, so it was not run: text must be text.",
    );
    expect(notJson).toMatchObject({ status: "refused", callId: null });
    expect(notJson?.text).toBe("The arguments for local-tools__echo are not valid JSON, so it was not run.");
    expect(done).toMatchObject({ status: "limit_reached", toolCalls: 2 });
    // The two refused requests used up the budget: the third, valid one is not run.
    expect(done.stopReason).toBe("the tool call limit (2) was reached");
    expect(toolResults(done)).toHaveLength(2);
  });

  it("stops at the round limit, and at the tool call limit, saying which", async () => {
    const echo = { toolCalls: [{ name: "local-tools__echo", arguments: { text: "again" } }] };
    const rounds = await ended((await start([echo, echo, echo], { maxRounds: 2 })).id);
    expect(rounds).toMatchObject({ status: "limit_reached", rounds: 2, toolCalls: 2 });
    expect(rounds.stopReason).toBe("the round limit (2) was reached before a final answer");
    const twice = { toolCalls: [echo.toolCalls[0], echo.toolCalls[0]] } as ScriptedTurn;
    const toolCalls = await ended((await start([twice, twice], { maxToolCalls: 3 })).id);
    expect(toolCalls).toMatchObject({ status: "limit_reached", toolCalls: 3 });
    expect(toolCalls.stopReason).toBe("the tool call limit (3) was reached");
  });

  it("cancels a run mid-call: the call is cancelled downstream and the run says who stopped it", async () => {
    const run = await start([{ toolCalls: [{ name: "fixture__slow", arguments: { ms: 30_000 } }] }]);
    const callId = await eventually(async () => {
      const [row] = await world.handle.db
        .select({ id: calls.id })
        .from(calls)
        .where(and(eq(calls.gatewayName, "fixture__slow"), eq(calls.status, "running")));
      return row?.id;
    }, "the slow call running");
    const cancelled = await sendTo(cancelRoute, `/api/v1/agent-runs/${run.id}/cancel`, {
      method: "POST",
      headers: admin,
      params: { id: run.id },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.run).toMatchObject({
      status: "cancelled",
      stopReason: expect.stringMatching(/^cancelled by key /),
    });
    await eventually(async () => {
      const [row] = await world.handle.db
        .select({ status: calls.status })
        .from(calls)
        .where(eq(calls.id, callId));
      return row?.status === "cancelled" ? true : undefined;
    }, "the downstream call cancelled");
    const again = await sendTo(cancelRoute, `/api/v1/agent-runs/${run.id}/cancel`, {
      method: "POST",
      headers: admin,
      params: { id: run.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("The run already ended (cancelled).");
    expect((await read(run.id)).status).toBe("cancelled");
  });

  it.each([
    [
      "malformed JSON",
      { raw: "{not json" },
      /^Round 1, asking the model: the model endpoint answered malformed JSON: \{not json\.$/,
    ],
    [
      "JSON that is no chat completion",
      { raw: '{"choices": []}' },
      /the model endpoint's answer is not a chat completion \(it has no choices at choices\)/,
    ],
    [
      "a stream of garbage where one answer was asked for",
      {
        raw: 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: \u0000\u0007garbage\n\ndata: [DONE]\n',
      },
      /^Round 1, asking the model: the model endpoint answered malformed JSON: data: /,
    ],
    ["an HTTP error", { status: 500, body: "upstream exploded" }, /answered HTTP 500: upstream exploded/],
  ] as const)("ends the run cleanly on %s, naming the step", async (_, turn, reason) => {
    const done = await ended((await start([turn as ScriptedTurn])).id);
    expect(done.status).toBe("failed");
    expect(done.stopReason).toMatch(reason);
  });

  it("stores what PostgreSQL cannot hold (NUL, half a surrogate pair) from the model and the prompt as U+FFFD", async () => {
    const run = await start([{ text: "fine\u0000 and \ud800 half" }], { prompt: "say\u0000 it" });
    const done = await ended(run.id);
    expect(done.status).toBe("succeeded");
    expect(done.prompt).toBe("say\ufffd it");
    expect(done.steps.at(-1)).toEqual({ kind: "answer", text: "fine\ufffd and \ufffd half" });
  });

  it("names a model that never answers, a refused key and an unreachable endpoint", async () => {
    const silent = await ended((await start([{ hang: true }], { timeoutSeconds: 5 })).id);
    expect(silent).toMatchObject({
      status: "failed",
      stopReason: "Round 1, asking the model: the model endpoint did not answer within 5 s.",
    });

    const locked = await startFakeModelServer({ apiKey: "right-key" });
    await putSecret(world.handle.db, {
      tenantId: world.tenantId,
      name: "model-key",
      value: "wrong-key",
      by: null,
    });
    const withKey = await sendTo(createConnectionRoute, "/api/v1/model-connections", {
      method: "POST",
      headers: admin,
      body: { name: "locked", baseUrl: locked.baseUrl, model: "m", apiKeySecret: "model-key" },
    });
    expect(withKey.status, JSON.stringify(withKey.body)).toBe(201);
    const refused = await ended((await start([], { model: "locked" })).id);
    expect(refused.stopReason).toMatch(
      /^Round 1, asking the model: the model endpoint refused the API key \(HTTP 401\)/,
    );
    expect(locked.requests[0]?.authorization).toBe("Bearer wrong-key");
    await locked.close();

    const gone = await sendTo(createConnectionRoute, "/api/v1/model-connections", {
      method: "POST",
      headers: admin,
      body: { name: "gone", baseUrl: locked.baseUrl, model: "m" },
    });
    expect(gone.status).toBe(201);
    const unreachable = await ended((await start([], { model: "gone" })).id);
    expect(unreachable.stopReason).toMatch(/could not be reached: connection refused/);
  });

  it.each([
    [
      "a prompt over 20,000 characters",
      { prompt: "x".repeat(20_001) },
      /A prompt is limited to 20,000 characters/,
    ],
    ["maxRounds of 11", { maxRounds: 11 }, /maxRounds is at most 10/],
    ["maxRounds of 0", { maxRounds: 0 }, /maxRounds is a whole number from 1 to 10/],
    ["timeoutSeconds of 2", { timeoutSeconds: 2 }, /timeoutSeconds is at least 5/],
    ["an unknown principal", { principal: "nobody" }, /No principal "nobody"/],
    ["an unknown model", { model: "nothing" }, /No model connection "nothing"/],
    ["an unknown field", { temperature: 2 }, /temperature/],
    [
      "a principal named with a NUL",
      { principal: "agent\u0000007" },
      /principal: no name or id holds a NUL character/,
    ],
  ])("refuses %s with a 400 that says what to fix", async (_, input, message) => {
    const { status, body } = await sendTo(startRoute, "/api/v1/agent-runs", {
      method: "POST",
      headers: admin,
      body: { principal: "agent-007", model: "scripted", prompt: "hello", ...input },
    });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(message);
  });

  it("ends a run its process left behind once past its time limit, and at a PGlite start", async () => {
    const { db } = world.handle;
    const [principal] = await db.select().from(principals).where(eq(principals.name, "agent-007"));
    if (!principal) throw new Error("the world's principal agent-007 is missing");
    const leftBehind = async (startedSecondsAgo: number) => {
      const [row] = await db
        .insert(agentRuns)
        .values({
          tenantId: world.tenantId,
          principalId: principal.id,
          principalName: principal.name,
          modelName: "scripted (scripted-1)",
          prompt: "A run whose process was killed.",
          limits: { maxRounds: 3, maxToolCalls: 10, timeoutSeconds: 60, maxTokens: 200_000 },
          steps: [{ kind: "prompt", text: "A run whose process was killed." }],
          startedBy: "a process that is gone",
          createdAt: new Date(Date.now() - startedSecondsAgo * 1000),
        })
        .returning({ id: agentRuns.id });
      if (!row) throw new Error("the run was not inserted");
      return row.id;
    };
    // Within its time limit and the grace after it, a run may still be going on elsewhere.
    const recent = await leftBehind(30);
    expect((await read(recent)).status).toBe("running");

    const stale = await leftBehind(60 + 61);
    const run = await read(stale);
    expect(run.status).toBe("failed");
    expect(run.stopReason).toBe("Switchboard stopped while the run was going on; it was not finished.");
    expect(run.endedAt).not.toBeNull();
    const finished = await db
      .select()
      .from(events)
      .where(and(eq(events.type, "agent_run.finished"), sql`${events.data}->>'runId' = ${stale}`));
    expect(finished).toHaveLength(1);

    // A PGlite folder is one process's alone: at its start, every run still running is stranded.
    expect(await endStrandedRuns(db, { all: true })).toBe(1);
    expect((await read(recent)).status).toBe("failed");
  });

  it("refuses a model connection with a bad URL, an unset secret or a taken name", async () => {
    const post = (body: unknown) =>
      sendTo(createConnectionRoute, "/api/v1/model-connections", { method: "POST", headers: admin, body });
    expect((await post({ name: "x", baseUrl: "ftp://example.com", model: "m" })).body.error.message).toMatch(
      /must start with https:\/\/ or http:\/\//,
    );
    expect(
      (await post({ name: "y", baseUrl: model.baseUrl, model: "m", apiKeySecret: "unset" })).status,
    ).toBe(400);
    const taken = await post({ name: "scripted", baseUrl: model.baseUrl, model: "m" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('A model connection named "scripted" already exists.');
  });
});

import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type ClientCapabilities,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { POST as answerRoute } from "@/app/api/v1/elicitations/[id]/route";
import { GET as listRoute } from "@/app/api/v1/elicitations/route";
import { auditEvents } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { putApprovalPolicy } from "@/lib/policy/approval-rules";
import { createTestOperator, drivers } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../fixtures/gateway-listener";
import {
  CONFORMANCE_SERVER,
  type ConformanceWorld,
  openConformanceWorld,
} from "../fixtures/mcp-servers/conformance-world";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * Issue 18, part 3: a downstream server's form elicitation during a call whose caller cannot answer
 * it waits for an operator, who answers over REST; the server receives that answer. Real conformance
 * fixture server over stdio (its test_elicitation tool returns what it received), real route
 * handlers, real SDK clients through the gateway over HTTP, on PGlite and PostgreSQL.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const TOOL = `${CONFORMANCE_SERVER}__test_elicitation`;
const text = (result: Json) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("\n");
/** What the fixture's test_elicitation says it received: the action and the content, as values. */
const received = (result: Json) => {
  const match = /^Elicitation completed: action=(\w+), content=(.*)$/s.exec(text(result));
  return match ? { action: match[1], content: JSON.parse(match[2] ?? "{}") } : { text: text(result) };
};

describe.each(drivers)("elicitations answered by an operator (%s)", (driver) => {
  let world: ConformanceWorld;
  let listener: GatewayListener;
  let approver: Record<string, string>;

  const postCall = (message: string) =>
    sendTo(postCallRoute, "/api/v1/calls", {
      method: "POST",
      headers: bearer(world.agent.key),
      body: { tool: TOOL, arguments: { message } },
    });
  const pendingFor = (predicate: (item: Json) => boolean) =>
    eventually(async () => {
      const list = await sendTo(listRoute, "/api/v1/elicitations?status=pending", { headers: approver });
      expect(list.status).toBe(200);
      return (list.body.elicitations as Json[]).find(predicate);
    }, "the question in the queue");
  const answer = (id: string, body: unknown) =>
    sendTo(answerRoute, `/api/v1/elicitations/${id}`, {
      method: "POST",
      headers: approver,
      body,
      params: { id },
    });

  beforeAll(async () => {
    world = await openConformanceWorld(driver);
    listener = await listenGateway();
    const operator = await createTestOperator(world.handle, {
      email: `elicit-${driver}@example.com`,
      role: "approver",
    });
    approver = { cookie: operator.cookie };
  });
  afterAll(async () => {
    await listener?.close();
    await world?.close();
  });

  it("a REST call's question waits for an operator; bad values are refused by field; the accepted values reach the server", async () => {
    const posted = postCall("Who is asking?");
    const question = await pendingFor((item) => item.message === "Who is asking?");
    expect(question).toMatchObject({
      status: "pending",
      serverName: CONFORMANCE_SERVER,
      tool: TOOL,
      requestedSchema: { properties: { username: { type: "string" }, email: { type: "string" } } },
    });

    const wrongType = await answer(question.id, {
      action: "accept",
      content: { username: 7, email: "a@b.c" },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain("username");
    const missing = await answer(question.id, { action: "accept", content: { username: "ada" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fieldErrors).toHaveProperty("email");
    const unknown = await answer(question.id, {
      action: "accept",
      content: { username: "ada", email: "ada@example.com", password: "x" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fieldErrors).toHaveProperty("password");
    const badAction = await answer(question.id, { action: "maybe" });
    expect(badAction.status).toBe(400);

    const accepted = await answer(question.id, {
      action: "accept",
      content: { username: "ada", email: "ada@example.com" },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.elicitation).toMatchObject({ status: "accepted", decidedBy: expect.any(String) });

    const result = await posted;
    expect(result.status).toBe(200);
    expect(result.body.call.status).toBe("succeeded");
    expect(received(result.body.call.result)).toEqual({
      action: "accept",
      content: { username: "ada", email: "ada@example.com" },
    });

    // Answered once: a second answer says who answered first.
    const again = await answer(question.id, { action: "decline" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("already accepted");

    // The call's timeline shows the question and its answer; the audit log who answered.
    const page = await sendTo(getCallRoute, `/api/v1/calls/${question.callId}`, {
      headers: approver,
      params: { id: question.callId },
    });
    const types = (page.body.timeline as Json[]).map((entry) => entry.type);
    expect(types).toEqual(expect.arrayContaining(["elicitation.requested", "elicitation.answered"]));
    expect(types.indexOf("elicitation.requested")).toBeLessThan(types.indexOf("call.succeeded"));
    const audit = await world.handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "elicitation.answered"), eq(auditEvents.subject, question.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).not.toContain("ada@example.com");
  });

  it("a declined question is declined for the server", async () => {
    const posted = postCall("Decline me");
    const question = await pendingFor((item) => item.message === "Decline me");
    const withValues = await answer(question.id, { action: "decline", content: { username: "x" } });
    expect(withValues.status).toBe(400);
    expect((await answer(question.id, { action: "decline" })).status).toBe(200);
    expect(received((await posted).body.call.result)).toEqual({ action: "decline", content: {} });
  });

  it("a question nobody answers expires with the workspace's approval expiry, and the server gets cancel", async () => {
    await putApprovalPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { expirySeconds: 1 },
      by: SYSTEM_AUTHORITY.by,
    });
    try {
      const result = await postCall("Nobody answers");
      expect(received(result.body.call.result)).toEqual({ action: "cancel", content: {} });
      const answered = await sendTo(
        listRoute,
        `/api/v1/elicitations?status=answered&callId=${result.body.call.id}`,
        {
          headers: approver,
        },
      );
      expect(answered.body.elicitations).toMatchObject([{ status: "expired", decidedBy: null }]);
      const late = await answer(answered.body.elicitations[0].id, { action: "cancel" });
      expect(late.status).toBe(409);
      expect(late.body.error.message).toContain("expired");
    } finally {
      await putApprovalPolicy(world.handle.db, {
        tenantId: world.tenantId,
        input: {},
        by: SYSTEM_AUTHORITY.by,
      });
    }
  });

  it("an agent without the elicitation capability gets the operator's answer; one with it is asked itself", async () => {
    const plain = await connect(world.agent.key);
    const asker = await connect(world.agent.key, { elicitation: {} });
    const asked: string[] = [];
    asker.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { username: "self", email: "self@example.com" } };
    });
    try {
      const running = plain.callTool({
        name: "test_elicitation",
        arguments: { message: "Agent needs help" },
      });
      const question = await pendingFor((item) => item.message === "Agent needs help");
      expect(
        (
          await answer(question.id, {
            action: "accept",
            content: { username: "op", email: "op@example.com" },
          })
        ).status,
      ).toBe(200);
      expect(received((await running) as Json)).toEqual({
        action: "accept",
        content: { username: "op", email: "op@example.com" },
      });

      const direct = (await asker.callTool({
        name: "test_elicitation",
        arguments: { message: "Ask me" },
      })) as CallToolResult;
      expect(received(direct as Json)).toEqual({
        action: "accept",
        content: { username: "self", email: "self@example.com" },
      });
      expect(asked).toEqual(["Ask me"]);
      const queued = await sendTo(listRoute, "/api/v1/elicitations?status=answered&limit=200", {
        headers: approver,
      });
      expect((queued.body.elicitations as Json[]).some((item) => item.message === "Ask me")).toBe(false);
    } finally {
      await plain.close();
      await asker.close();
    }
  });

  async function connect(key: string, capabilities: ClientCapabilities = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(
      new URL(`/mcp/servers/${CONFORMANCE_SERVER}`, listener.base),
      {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      },
    );
    const client = new Client({ name: "elicitation-test", version: "1.0.0" }, { capabilities });
    await client.connect(transport);
    return client;
  }
});

import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { GET as listApprovalsRoute } from "@/app/api/v1/approvals/route";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { approvals, calls, events } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { updateTool } from "@/lib/catalog/governed-tools";
import { captureLogLines } from "@/lib/observability/log";
import { getInstancePolicy, saveInstancePolicy } from "@/lib/policy/instance-policy-store";
import { putSecret } from "@/lib/secrets/secrets";
import { updateServer } from "@/lib/servers/registry";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { eventually } from "../fixtures/eventually";
import { demoServer, tsxArgs } from "../fixtures/mcp-servers/pool-harness";

/*
 * Secret values of the workspace — stored secrets and environment variables its servers reference —
 * reach the tool when a caller passes them, but never the call record, the events, a response or
 * a log line. Canaries make any leak visible.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
const STORED_CANARY = `sk-stored-${randomBytes(8).toString("hex")}`;
const ENV_CANARY = `sk-env-${randomBytes(8).toString("hex")}`;
vi.stubEnv("SB_TEST_CANARY", ENV_CANARY);

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the assertions, not by types
type Json = Record<string, any>;

describe("secret canaries on the governed call path", () => {
  let world: CallsWorld;
  const seen: string[] = [];
  const logged: string[] = [];
  let stopCapture: (() => void) | undefined;

  const post = async (body: unknown, headers: Record<string, string>) => {
    const res = await postCallRoute(
      new Request("http://127.0.0.1:3000/api/v1/calls", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) } as never,
    );
    const text = await res.text();
    seen.push(text);
    return JSON.parse(text) as Json;
  };
  const get = async (
    route: (req: Request, ctx: never) => Promise<Response>,
    path: string,
    id: string,
    headers: Record<string, string>,
    method = "GET",
  ) => {
    const res = await route(new Request(`http://127.0.0.1:3000${path}`, { method, headers }), {
      params: Promise.resolve({ id }),
    } as never);
    const text = await res.text();
    seen.push(text);
    return JSON.parse(text) as Json;
  };

  beforeAll(async () => {
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      const original = console[method].bind(console);
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(
          args
            .map((a) =>
              a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a),
            )
            .join(" "),
        );
        original(...args);
      });
    }
    // The server log (lib/observability/log), at its most detailed: every line is searched too.
    stopCapture = captureLogLines((line) => logged.push(line), "trace");
    world = await openCallsWorld("pglite");
    await putSecret(world.handle.db, {
      tenantId: world.tenantId,
      name: "canary",
      value: STORED_CANARY,
      by: null,
    });
    // local-tools now references an environment variable (the instance policy lets servers read
    // it): its value is a workspace secret too.
    const policy = await getInstancePolicy(world.handle.db);
    policy.fromEnv.allowed.push("SB_TEST_CANARY");
    await saveInstancePolicy(world.handle.db, { policy, updatedBy: null });
    await updateServer(world.handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: world.tenantId,
      name: "local-tools",
      patch: { args: tsxArgs(demoServer("local-tools.ts")), env: { CANARY: { fromEnv: "SB_TEST_CANARY" } } },
    });
    for (const name of ["local-tools__echo", "local-tools__word_count", "local-tools__current_time"]) {
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
    }
  });
  afterAll(async () => {
    stopCapture?.();
    await world?.close();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("passes the real value to the tool but stores and returns [redacted]", async () => {
    const agent = { authorization: `Bearer ${world.agent.key}` };
    const counted = await eventually(async () => {
      const body = await post({ tool: "local-tools__word_count", arguments: { text: STORED_CANARY } }, agent);
      return body.call?.status === "succeeded" ? body.call : undefined;
    }, "local-tools to answer after its restart");
    // The tool counted the canary's own characters: it received the value, not the placeholder.
    expect(counted.result.structuredContent.characters).toBe(STORED_CANARY.length);
    expect(counted.arguments).toEqual({ text: "[redacted]" });

    const echoed = await post(
      { tool: "local-tools__echo", arguments: { text: `a ${STORED_CANARY} b ${ENV_CANARY}` } },
      agent,
    );
    expect(echoed.call.result.content[0].text).toBe("a [redacted] b [redacted]");

    // A tool error that quotes its argument is scrubbed as well.
    const failed = await post(
      { tool: "local-tools__current_time", arguments: { timeZone: ENV_CANARY } },
      agent,
    );
    expect(failed.call).toMatchObject({ status: "succeeded", isError: true });
    expect(failed.call.result.content[0].text).toContain("[redacted]");

    // An ungranted attempt with a secret in it is recorded scrubbed too.
    await post({ tool: "fixture__big", arguments: { bytes: 1, note: STORED_CANARY } }, agent);
  });

  it("keeps the value sealed while a call waits for approval, and gives it to the tool once approved", async () => {
    const agent = { authorization: `Bearer ${world.agent.key}` };
    const tokenWithSecret = `token:${STORED_CANARY}`;
    const held = await post({ tool: "fixture__record", arguments: { token: tokenWithSecret } }, agent);
    expect(held.call.status).toBe("pending_approval");
    const [pending] = await world.handle.db
      .select({ sealed: calls.sealedArguments })
      .from(calls)
      .where(eqId(held.call.id));
    expect(pending?.sealed).toEqual(expect.any(String));
    expect(pending?.sealed).not.toContain("token:");
    const approver = { cookie: world.approvers[0]?.cookie ?? "" };
    const queue = await get(listApprovalsRoute, "/api/v1/approvals", "", approver);
    expect(queue.approvals.find((a: Json) => a.call.id === held.call.id).call.arguments).toEqual({
      token: "token:[redacted]",
    });
    await get(approveRoute, `/api/v1/approvals/${held.call.id}/approve`, held.call.id, approver, "POST");
    await eventually(
      async () => (world.recorded().includes(tokenWithSecret) ? true : undefined),
      "the approved call to run",
    );
    const detail = await get(getCallRoute, `/api/v1/calls/${held.call.id}`, held.call.id, approver);
    expect(detail.call.status).toBe("succeeded");
    expect(detail.call.result.content[0].text).toBe("recorded token:[redacted]");
    const [row] = await world.handle.db
      .select({ sealed: calls.sealedArguments })
      .from(calls)
      .where(eqId(held.call.id));
    expect(row?.sealed).toBeNull();
  });

  it("left no canary in the call records, the event log, any response or any log line", async () => {
    const everything = JSON.stringify({
      calls: await world.handle.db.select().from(calls),
      approvals: await world.handle.db.select().from(approvals),
      events: await world.handle.db.select().from(events),
      responses: seen,
      logs: logged,
    });
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).toContain("[redacted]");
    expect(everything).not.toContain(STORED_CANARY);
    expect(everything).not.toContain(ENV_CANARY);
  });
});

const eqId = (id: string) => eq(calls.id, id);

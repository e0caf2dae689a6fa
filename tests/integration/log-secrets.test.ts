import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { updateTool } from "@/lib/catalog/governed-tools";
import { captureLogLines } from "@/lib/observability/log";
import { getInstancePolicy, saveInstancePolicy } from "@/lib/policy/instance-policy-store";
import { putSecret } from "@/lib/secrets/secrets";
import { registerServer } from "@/lib/servers/registry";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestAgent } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { fixture, tsxArgs } from "../fixtures/mcp-servers/pool-harness";

/*
 * The server log during real work — the runtime starting, a downstream server that prints its
 * secret environment variable and a secret argument on stderr, a governed call — is JSON lines,
 * carries the downstream stderr (scrubbed), and holds no canary anywhere.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
const STORED_CANARY = `sk-stored-${randomBytes(8).toString("hex")}`;
const ENV_CANARY = `sk-env-${randomBytes(8).toString("hex")}`;
vi.stubEnv("SB_LOG_TEST_CANARY", ENV_CANARY);

// biome-ignore lint/suspicious/noExplicitAny: log lines are checked by the assertions, not by types
type Line = Record<string, any>;

describe("secret canaries and the server log", () => {
  let world: CallsWorld;
  let agent: { id: string; key: string };
  const lines: string[] = [];
  let stopCapture: () => void;
  const parsed = () => lines.map((line) => JSON.parse(line) as Line);

  beforeAll(async () => {
    stopCapture = captureLogLines((line) => lines.push(line), "trace");
    world = await openCallsWorld("pglite");
    const db = world.handle.db;
    await putSecret(db, { tenantId: world.tenantId, name: "canary", value: STORED_CANARY, by: null });
    const policy = await getInstancePolicy(db);
    policy.fromEnv.allowed.push("SB_LOG_TEST_CANARY");
    await saveInstancePolicy(db, { policy, updatedBy: null });
    await registerServer(db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: world.tenantId,
      input: {
        name: "noisy",
        transport: "stdio",
        command: "node",
        args: tsxArgs(fixture("stderr-canary.ts")),
        env: { CANARY: { fromEnv: "SB_LOG_TEST_CANARY" } },
      },
    });
    const toolId = await eventually(
      () => world.toolId("noisy__shout").catch(() => undefined),
      "the noisy server's catalog",
    );
    await updateTool(db, { tenantId: world.tenantId, id: toolId, input: { effect: "read" } });
    agent = await createTestAgent(db, {
      tenantId: world.tenantId,
      name: "loud-agent",
      patterns: ["noisy__*"],
    });
  });
  afterAll(async () => {
    stopCapture?.();
    await world?.close();
    vi.unstubAllEnvs();
  });

  it("logs the downstream server's stderr with its secrets replaced, and the call's outcome with its ids", async () => {
    const res = await postCallRoute(
      new Request("http://127.0.0.1:3000/api/v1/calls", {
        method: "POST",
        headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
        body: JSON.stringify({ tool: "noisy__shout", arguments: { text: `loud ${STORED_CANARY}` } }),
      }),
      { params: Promise.resolve({}) } as never,
    );
    const body = (await res.json()) as Line;
    expect(body.call?.status).toBe("succeeded");

    // The sentinel: the call's own stderr line has reached the log.
    const shout = await eventually(
      async () => parsed().find((line) => String(line.msg).includes("stderr-canary: shout")),
      "the shout on stderr in the log",
    );
    expect(shout).toMatchObject({
      level: "debug",
      stream: "stderr",
      server: "noisy",
      msg: "stderr-canary: shout loud [redacted] with CANARY=[redacted]",
    });
    expect(parsed().some((line) => line.msg === "stderr-canary: started with CANARY=[redacted]")).toBe(true);
    // The call's lifecycle, with the ids a log search needs.
    const succeeded = await eventually(
      async () => parsed().find((line) => line.event === "call.succeeded" && line.callId === body.call.id),
      "the call's outcome in the log",
    );
    expect(succeeded).toMatchObject({
      level: "debug",
      msg: "event call.succeeded",
      tenantId: world.tenantId,
      principalId: agent.id,
      tool: "noisy__shout",
    });
  });

  it("wrote only JSON lines, with no canary and no API key in any of them", () => {
    expect(lines.length).toBeGreaterThan(3);
    for (const line of parsed()) {
      expect(line).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String) }));
      expect(typeof line.msg).toBe("string");
    }
    const everything = lines.join("");
    expect(everything).not.toContain(STORED_CANARY);
    expect(everything).not.toContain(ENV_CANARY);
    expect(everything).not.toContain(agent.key);
    expect(everything).not.toContain(world.agent.key);
  });
});

import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  completeArgumentAction,
  getPromptAction,
  readResourceAction,
} from "@/app/(dashboard)/playground/actions";
import { catalogEntries } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { listCalls } from "@/lib/calls/read-calls";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer, updateServer } from "@/lib/servers/registry";
import { createTestOperator, drivers, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { fixture, tsxArgs } from "../fixtures/mcp-servers/pool-harness";

/*
 * The Playground's resource reads, prompt gets and argument completions, through the real server
 * actions as a signed-in operator, against a real stdio server (inspect-fixture.ts): reads and gets
 * are recorded calls of their kind; only what the server lists can be asked for; viewers are
 * refused everything, completions included; a server's "reads need approval" holds a read.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
let requestHeaders = new Headers();
vi.mock("next/headers", () => ({ headers: async () => requestHeaders }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("playground inspect actions (%s)", (driver) => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let serverId: string;
  let approver: string;
  let viewer: string;
  const as = (cookie: string) => {
    requestHeaders = new Headers({ cookie });
  };
  const callsOfKind = async (kind: string) =>
    (
      await listCalls(handle.db, {
        tenantId: handle.defaultTenant.id,
        reader: { kind: "workspace" },
        query: { kind },
      })
    ).calls;

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    runtime = new ServerRuntime(handle.db);
    await runtime.start();
    setServerRuntime(runtime);
    const server = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "inspect",
        transport: "stdio",
        command: "node",
        args: tsxArgs(fixture("inspect-fixture.ts")),
      },
    });
    serverId = server.id;
    await eventually(async () => {
      const prompts = await handle.db
        .select({ key: catalogEntries.key })
        .from(catalogEntries)
        .where(and(eq(catalogEntries.serverId, serverId), eq(catalogEntries.kind, "prompt")));
      return prompts.length > 0 ? true : undefined;
    }, "the fixture's catalog");
    approver = (
      await createTestOperator(handle, { email: `approver-${driver}@example.com`, role: "approver" })
    ).cookie;
    viewer = (await createTestOperator(handle, { email: `viewer-${driver}@example.com`, role: "viewer" }))
      .cookie;
  });

  afterAll(async () => {
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
  });

  it("reads a listed resource as a recorded call of kind resource_read", async () => {
    as(approver);
    const result = await readResourceAction({ serverId, uri: "inspect://config/settings.json" });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ kind: "resource_read", status: "succeeded" });
    expect(result.data.result?.contents).toEqual([
      expect.objectContaining({ mimeType: "application/json", text: expect.stringContaining('"eu-west"') }),
    ]);
    const recorded = await callsOfKind("resource_read");
    expect(recorded.map((call) => call.id)).toContain(result.data.id);
  });

  it("reads a URI one of the server's templates matches", async () => {
    as(approver);
    const result = await readResourceAction({ serverId, uri: "inspect://colors/green" });
    expect(result.ok && result.data.result?.contents).toEqual([
      expect.objectContaining({ text: "The color green." }),
    ]);
  });

  it("refuses a URI the server does not list, and records nothing", async () => {
    as(approver);
    const before = (await callsOfKind("resource_read")).length;
    const result = await readResourceAction({ serverId, uri: "file:///etc/passwd" });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(!result.ok && result.error.message).toContain("lists no resource file:///etc/passwd");
    expect(await callsOfKind("resource_read")).toHaveLength(before);
  });

  it("gets a prompt with its arguments as a recorded call of kind prompt_get", async () => {
    as(approver);
    const result = await getPromptAction({
      serverId,
      name: "code-review",
      arguments: { language: "go", focus: "" },
    });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ kind: "prompt_get", status: "succeeded" });
    expect(result.data.result?.messages).toEqual([
      { role: "user", content: { type: "text", text: "Review this go code." } },
      { role: "assistant", content: { type: "text", text: "Sure: paste the go snippet." } },
    ]);
    expect((await callsOfKind("prompt_get")).map((call) => call.id)).toContain(result.data.id);
  });

  it("names a missing required argument and an unknown one beside their fields", async () => {
    as(approver);
    const result = await getPromptAction({ serverId, name: "code-review", arguments: { colour: "red" } });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "validation",
        fieldErrors: { "arguments.language": ["Required."], "arguments.colour": [expect.any(String)] },
      },
    });
  });

  it("suggests values for a prompt's argument and a template's variable", async () => {
    as(approver);
    const prompt = await completeArgumentAction({
      serverId,
      ref: { type: "ref/prompt", name: "code-review" },
      argument: { name: "language", value: "py" },
    });
    expect(prompt).toEqual({ ok: true, data: { values: ["python"], hasMore: false, isOffered: true } });
    const template = await completeArgumentAction({
      serverId,
      ref: { type: "ref/resource", uri: "inspect://colors/{color}" },
      argument: { name: "color", value: "bl" },
    });
    expect(template).toMatchObject({ ok: true, data: { values: ["blue", "black"] } });
  });

  it("refuses completions for what the server does not list", async () => {
    as(approver);
    const result = await completeArgumentAction({
      serverId,
      ref: { type: "ref/resource", uri: "file:///{path}" },
      argument: { name: "path", value: "" },
    });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("refuses a viewer reads, gets and completions, and records nothing", async () => {
    as(viewer);
    const before = (await callsOfKind("resource_read,prompt_get")).length;
    for (const result of [
      await readResourceAction({ serverId, uri: "inspect://docs/readme.txt" }),
      await getPromptAction({ serverId, name: "code-review", arguments: { language: "go" } }),
      await completeArgumentAction({
        serverId,
        ref: { type: "ref/prompt", name: "code-review" },
        argument: { name: "language", value: "" },
      }),
    ]) {
      expect(result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
    expect(await callsOfKind("resource_read,prompt_get")).toHaveLength(before);
  });

  it("holds a read for approval when the server says reads need it", async () => {
    await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      name: "inspect",
      patch: { resourceReadsNeedApproval: true },
    });
    as(approver);
    const result = await readResourceAction({ serverId, uri: "inspect://docs/readme.txt" });
    expect(result).toMatchObject({ ok: true, data: { kind: "resource_read", status: "pending_approval" } });
  });
});

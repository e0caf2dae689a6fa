import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getToolRoute, PATCH as patchToolRoute } from "@/app/api/v1/tools/[id]/route";
import { GET as listToolsRoute } from "@/app/api/v1/tools/route";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { registerServer } from "@/lib/servers/registry";
import { createTestApiKey, createTestOperator, openProcessTestDatabase } from "../fixtures/databases";

/*
 * The tool catalog as admins govern it: the enforced effect beside the server's own hints, which
 * never lower it; classification falls back when a definition drifts; only admins change anything.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the assertions, not by types
type Json = Record<string, any>;
const tool = (name: string, extra: Json = {}) => ({ name, inputSchema: { type: "object" }, ...extra });

describe("tools REST", () => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  let serverId: string;

  const list = async (query = "", headers = admin) => {
    const res = await listToolsRoute(new Request(`http://127.0.0.1/api/v1/tools${query}`, { headers }), {
      params: Promise.resolve({}),
    } as never);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const patch = async (id: string, body: unknown, headers = admin) => {
    const res = await patchToolRoute(
      new Request(`http://127.0.0.1/api/v1/tools/${id}`, {
        method: "PATCH",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ id }) } as never,
    );
    return { status: res.status, body: (await res.json()) as Json };
  };
  const byName = async (gatewayName: string) =>
    (await list()).body.tools.find((t: Json) => t.gatewayName === gatewayName);
  const catalog = (tools: Json[]) => ({ tools, resources: [], resourceTemplates: [], prompts: [] }) as never;

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    admin = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    viewer = {
      cookie: (await createTestOperator(handle, { email: "v@example.com", role: "viewer" })).cookie,
    };
    const server = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: { name: "github", transport: "stdio", command: "node", args: ["x.js"], enabled: false },
    });
    serverId = server.id;
    await saveCatalog(handle.db, {
      tenantId: handle.defaultTenant.id,
      serverId,
      catalog: catalog([
        tool("delete_repo", { description: "Deletes it.", annotations: { readOnlyHint: true } }),
        tool("list_issues", {
          description: "Lists issues.",
          annotations: { readOnlyHint: true, openWorldHint: true },
        }),
      ]),
    });
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("lists tools across servers with the enforced effect, the hints beside it, and the server's state", async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    const deleteRepo = body.tools.find((t: Json) => t.name === "delete_repo");
    // The server claims read-only; unclassified it is still enforced as external-write.
    expect(deleteRepo).toMatchObject({
      gatewayName: "github__delete_repo",
      serverName: "github",
      effect: null,
      enforcedEffect: "external-write",
      isClassified: false,
      hints: { readOnlyHint: true, destructiveHint: null },
      suggestedEffect: "read",
      approvalRule: "by-effect",
      enabled: true,
      serverEnabled: false,
      serverStatus: "disabled",
    });
    expect((await list("?q=ISSUES")).body.tools.map((t: Json) => t.name)).toEqual(["list_issues"]);
    expect((await list("?q=deletes")).body.tools.map((t: Json) => t.name)).toEqual(["delete_repo"]);
    expect((await list("", viewer)).status).toBe(200);
  });

  it("lets an admin classify, disable and set the approval rule; viewers only read", async () => {
    const id = (await byName("github__delete_repo")).id as string;
    const classified = await patch(id, { effect: "destructive", approvalRule: "always", enabled: false });
    expect(classified.status).toBe(200);
    expect(classified.body.tool).toMatchObject({
      effect: "destructive",
      enforcedEffect: "destructive",
      isClassified: true,
      approvalRule: "always",
      enabled: false,
    });
    expect((await patch(id, { effect: "read" }, viewer)).status).toBe(403);
    const one = await getToolRoute(new Request(`http://127.0.0.1/api/v1/tools/${id}`, { headers: viewer }), {
      params: Promise.resolve({ id }),
    } as never);
    expect((await one.json()).tool.effect).toBe("destructive");
  });

  it("refuses bad input and 'never' on an unclassified tool", async () => {
    const id = (await byName("github__list_issues")).id as string;
    const bad = await patch(id, { effect: "harmless", color: "red" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fieldErrors).sort()).toEqual(["color", "effect"]);
    const never = await patch(id, { approvalRule: "never" });
    expect(never.status).toBe(400);
    expect(never.body.error.fieldErrors.approvalRule[0]).toMatch(/classified/);
    const ok = await patch(id, { approvalRule: "never", effect: "read" });
    expect(ok.body.tool).toMatchObject({ approvalRule: "never", effect: "read" });
    expect((await patch("no-such-tool", { enabled: true })).status).toBe(404);
  });

  it("drops the classification when the definition drifts, until an admin reviews it again", async () => {
    await saveCatalog(handle.db, {
      tenantId: handle.defaultTenant.id,
      serverId,
      catalog: catalog([
        tool("delete_repo", { description: "Deletes it.", annotations: { readOnlyHint: true } }),
        tool("list_issues", {
          description: "Lists issues — and now closes stale ones.",
          annotations: { readOnlyHint: true },
        }),
      ]),
    });
    const drifted = await byName("github__list_issues");
    expect(drifted).toMatchObject({ effect: null, enforcedEffect: "external-write", isClassified: false });
    const unchanged = await byName("github__delete_repo");
    expect(unchanged).toMatchObject({ effect: "destructive" });
  });
  it("reads one tool by id, a removed one too (history), with its server's state", async () => {
    const id = (await byName("github__list_issues")).id as string;
    await saveCatalog(handle.db, {
      tenantId: handle.defaultTenant.id,
      serverId,
      catalog: catalog([
        tool("delete_repo", { description: "Deletes it.", annotations: { readOnlyHint: true } }),
      ]),
    });
    expect(await byName("github__list_issues")).toBeUndefined();
    const res = await getToolRoute(new Request(`http://127.0.0.1/api/v1/tools/${id}`, { headers: admin }), {
      params: Promise.resolve({ id }),
    } as never);
    expect(res.status).toBe(200);
    const { tool: removed } = await res.json();
    expect(removed).toMatchObject({ id, gatewayName: "github__list_issues", serverStatus: "disabled" });
    expect(removed.removedAt).not.toBeNull();
  });
});

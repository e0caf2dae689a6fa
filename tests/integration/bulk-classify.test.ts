import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PATCH as patchToolRoute } from "@/app/api/v1/tools/[id]/route";
import { GET as listToolsRoute, PATCH as patchToolsRoute } from "@/app/api/v1/tools/route";
import { auditEvents, events, mcpServers } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import { MAX_TOOLS_PER_UPDATE } from "@/lib/catalog/update-tools";
import type { DatabaseDriver } from "@/lib/db/client";
import { demoToolEffects } from "@/lib/demo/demo-servers";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { registerServer } from "@/lib/servers/registry";
import { createWorkspace } from "@/lib/tenancy/workspaces";
import {
  createTestAccount,
  createTestApiKey,
  createTestOperator,
  drivers,
  openProcessTestDatabase,
} from "../fixtures/databases";
import { bearer, type Json, senderAs } from "../fixtures/route-request";

/*
 * Bulk classification (PATCH /api/v1/tools): many tools in one request, all or nothing, each one
 * audited and evented like a single change; an approval rule that would silently do nothing is
 * refused; and effects Switchboard knows (the demo servers) apply to the first catalog only.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const tool = (name: string, extra: Json = {}) => ({ name, inputSchema: { type: "object" }, ...extra });
const catalog = (tools: Json[]) => ({ tools, resources: [], resourceTemplates: [], prompts: [] }) as never;

describe.each(drivers)("bulk classification (%s)", (driver: DatabaseDriver) => {
  let handle: ProcessDatabase;
  let adminKey: string;
  let viewer: Record<string, string>;
  let serverId: string;
  const send = senderAs(() => bearer(adminKey));
  const list = async () => (await send(listToolsRoute, "/api/v1/tools")).body.tools as Json[];
  const idOf = async (gatewayName: string) =>
    (await list()).find((t) => t.gatewayName === gatewayName)?.id as string;
  const bulk = (body: unknown, headers?: Record<string, string>) =>
    send(patchToolsRoute, "/api/v1/tools", { method: "PATCH", body, ...(headers ? { headers } : {}) });
  const save = (tools: Json[]) =>
    saveCatalog(handle.db, { tenantId: handle.defaultTenant.id, serverId, catalog: catalog(tools) });
  const auditOf = (ids: string[]) =>
    handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "tool.policy_changed"), inArray(auditEvents.subject, ids)))
      .orderBy(asc(auditEvents.createdAt));
  const policyEventsOf = async (ids: string[]) =>
    (await handle.db.select().from(events).where(eq(events.type, "policy.changed"))).filter((e) =>
      ids.includes((e.data as Json).subjectId),
    );

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    adminKey = await createTestApiKey(handle, ["admin"]);
    viewer = {
      cookie: (await createTestOperator(handle, { email: `v-${driver}@example.com`, role: "viewer" })).cookie,
    };
    serverId = (
      await registerServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId: handle.defaultTenant.id,
        input: { name: "notes", transport: "stdio", command: "node", args: ["x.js"], enabled: false },
      })
    ).id;
    await save([
      tool("list_notes", { annotations: { readOnlyHint: true } }),
      tool("get_note", { annotations: { readOnlyHint: true } }),
      tool("add_note", {
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      }),
    ]);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("classifies several tools in one request; each is audited and evented like a single change", async () => {
    const ids = [await idOf("notes__list_notes"), await idOf("notes__get_note")];
    const { status, body } = await bulk({ changes: ids.map((id) => ({ id, effect: "read" })) });
    expect(status).toBe(200);
    expect(body.tools.map((t: Json) => [t.gatewayName, t.effect, t.isClassified])).toEqual([
      ["notes__list_notes", "read", true],
      ["notes__get_note", "read", true],
    ]);
    const audit = await auditOf(ids);
    // One transaction: now() is the same for both, so compare the entries as a set.
    expect(audit.map((entry) => entry.detail).sort()).toEqual([
      "notes__get_note: effect read",
      "notes__list_notes: effect read",
    ]);
    expect(audit.every((entry) => entry.actorKind === "api_key")).toBe(true);
    const evented = await policyEventsOf(ids);
    expect(evented.map((e) => (e.data as Json).subjectId).sort()).toEqual([...ids].sort());
    expect(evented.every((e) => (e.data as Json).by?.kind === "api_key")).toBe(true);
    // add_note was not in the request: still unclassified.
    expect((await list()).find((t) => t.name === "add_note")).toMatchObject({ effect: null });
  });

  it("changes nothing when one id is unknown or of another workspace, and says which id", async () => {
    const owner = await createTestAccount(handle, { email: `b-${driver}@example.com` });
    const other = await createWorkspace(handle.db, {
      userId: owner.userId,
      instanceOwner: true,
      input: { name: `Other ${driver}` },
    });
    const otherServer = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: other.id,
      input: { name: "theirs", transport: "stdio", command: "node", args: ["y.js"], enabled: false },
    });
    await saveCatalog(handle.db, {
      tenantId: other.id,
      serverId: otherServer.id,
      catalog: catalog([tool("secret_tool")]),
    });
    const [theirs] = await handle.db.query.tools.findMany({
      where: (t, { eq }) => eq(t.serverId, otherServer.id),
    });
    const addNote = await idOf("notes__add_note");
    const foreign = await bulk({
      changes: [
        { id: addNote, effect: "write" },
        { id: theirs?.id, effect: "read" },
      ],
    });
    const missing = await bulk({
      changes: [
        { id: addNote, effect: "write" },
        { id: "no-such-tool", effect: "read" },
      ],
    });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    // The same answer for a tool of another workspace as for one that never existed.
    expect(foreign.body.error.message).toBe(missing.body.error.message.replace("no-such-tool", theirs?.id));
    expect(foreign.body.error.message).not.toMatch(/secret_tool|theirs|Other/);
    expect((await list()).find((t) => t.id === addNote)).toMatchObject({ effect: null });
    expect(await auditOf([addNote])).toEqual([]);
  });

  it("refuses 'never' on an unclassified tool, naming the tool and its place, and rolls back the rest", async () => {
    const [getNote, addNote] = [await idOf("notes__get_note"), await idOf("notes__add_note")];
    const { status, body } = await bulk({
      changes: [
        { id: getNote, approvalRule: "never" },
        { id: addNote, approvalRule: "never" },
      ],
    });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/Classify notes__add_note .*external-write.*Nothing was changed/);
    expect(Object.keys(body.error.fieldErrors)).toEqual(["changes.1.approvalRule"]);
    // get_note (classified read) would have been allowed alone, but nothing of the request applied.
    expect((await list()).find((t) => t.id === getNote)).toMatchObject({ approvalRule: "by-effect" });
  });

  it("bounds the request: at least one change, at most the limit, each tool once, known fields only", async () => {
    const id = await idOf("notes__add_note");
    const tooMany = Array.from({ length: MAX_TOOLS_PER_UPDATE + 1 }, (_, i) => ({
      id: `t${i}`,
      effect: "read",
    }));
    for (const body of [
      { changes: [] },
      { changes: tooMany },
      {
        changes: [
          { id, effect: "read" },
          { id, effect: "write" },
        ],
      },
      { changes: [{ id, effect: "harmless" }] },
      { changes: [{ id, colour: "red" }] },
      { ids: [id], effect: "read" },
      [{ id, effect: "read" }],
    ]) {
      const answer = await bulk(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error.message).toBeTruthy();
    }
    expect((await list()).find((t) => t.id === id)).toMatchObject({ effect: null });
    expect((await bulk({ changes: [{ id, effect: "write" }] }, viewer)).status).toBe(403);
  });

  it("keeps 'never' dormant on a tool whose definition changed: shown, not enforced, other fields still change", async () => {
    const id = await idOf("notes__list_notes");
    expect((await bulk({ changes: [{ id, approvalRule: "never" }] })).status).toBe(200);
    await save([
      tool("list_notes", { description: "now also deletes", annotations: { readOnlyHint: true } }),
      tool("get_note", { annotations: { readOnlyHint: true } }),
      tool("add_note", {
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      }),
    ]);
    expect((await list()).find((t) => t.id === id)).toMatchObject({
      effect: null,
      enforcedEffect: "external-write",
      approvalRule: "never",
    });
    // Disabling it must not be refused for a rule the admin did not touch.
    const disabled = await send(patchToolRoute, `/api/v1/tools/${id}`, {
      method: "PATCH",
      params: { id },
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    // Unclassifying it again while "never" is refused; classifying it wakes the rule up.
    expect((await bulk({ changes: [{ id, effect: null }] })).status).toBe(400);
    const reviewed = await bulk({ changes: [{ id, effect: "read", enabled: true }] });
    expect(reviewed.body.tools[0]).toMatchObject({ effect: "read", approvalRule: "never", enabled: true });
  });

  it("applies known effects to the first catalog of that server only, never from annotations", async () => {
    const demo = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "local-tools-copy",
        transport: "stdio",
        command: "node",
        args: ["z.js"],
        enabled: false,
      },
      knownToolEffects: demoToolEffects["local-tools"],
    });
    const plain = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: { name: "look-alike", transport: "stdio", command: "node", args: ["w.js"], enabled: false },
    });
    const readOnly = { annotations: { readOnlyHint: true } };
    const contents = catalog([tool("echo", readOnly), tool("write_note"), tool("constructor")]);
    for (const server of [demo, plain])
      await saveCatalog(handle.db, {
        tenantId: handle.defaultTenant.id,
        serverId: server.id,
        catalog: contents,
      });
    const effects = Object.fromEntries((await list()).map((t) => [t.gatewayName, t.effect]));
    expect(effects).toMatchObject({
      "local-tools-copy__echo": "read",
      "local-tools-copy__write_note": null,
      "local-tools-copy__constructor": null,
      // Same names, same read-only annotations, another server: unclassified.
      "look-alike__echo": null,
    });
    // Applied once: a tool that appears later is for a person to review.
    const [row] = await handle.db.select().from(mcpServers).where(eq(mcpServers.id, demo.id));
    expect(row?.knownToolEffects).toBeNull();
    await saveCatalog(handle.db, {
      tenantId: handle.defaultTenant.id,
      serverId: demo.id,
      catalog: catalog([tool("echo", readOnly), tool("write_note"), tool("word_count", readOnly)]),
    });
    expect((await list()).find((t) => t.gatewayName === "local-tools-copy__word_count")).toMatchObject({
      effect: null,
    });
  });
});

import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { PUT as putInstancePolicyRoute } from "@/app/api/v1/instance/policy/route";
import { PUT as putApprovalsRoute } from "@/app/api/v1/policy/approvals/route";
import { PUT as putEgressRoute } from "@/app/api/v1/policy/egress/route";
import { PUT as putGrantsRoute } from "@/app/api/v1/principals/[id]/grants/route";
import { DELETE as deletePrincipalRoute } from "@/app/api/v1/principals/[id]/route";
import { POST as postPrincipalRoute } from "@/app/api/v1/principals/route";
import { DELETE as deleteSecretRoute, PUT as putSecretRoute } from "@/app/api/v1/secrets/[name]/route";
import { DELETE as deleteServerRoute, PATCH as patchServerRoute } from "@/app/api/v1/servers/[name]/route";
import { POST as postServerRoute } from "@/app/api/v1/servers/route";
import { PATCH as patchToolRoute } from "@/app/api/v1/tools/[id]/route";
import { auditEvents, events, tools } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import type { DatabaseDriver } from "@/lib/db/client";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import {
  createTestApiKey,
  createTestOperator,
  drivers,
  openProcessTestDatabase,
} from "../fixtures/databases";
import { bearer, type Json, senderAs } from "../fixtures/route-request";

/*
 * Every change to what a workspace runs or allows is in the audit log with who made it — the key
 * or person by id, kind and name — and the event recorded for it says who too. A secret's value
 * never appears in either.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const SECRET_VALUE = "an-audited-secret-value-4711";

describe.each(drivers)("the audit log names who changed what (%s)", (driver: DatabaseDriver) => {
  let handle: ProcessDatabase;
  let opsKey: { value: string; id: string };
  let ownerKey: string;
  const send = senderAs(() => bearer(opsKey.value));

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    const ada = await createTestOperator(handle, { email: "ada@example.com", role: "admin" });
    // A person's key: the log names the key, and the key acts for Ada.
    const created = await createApiKey(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { name: "ops key", scopes: ["admin"] },
      by: { kind: "operator", id: ada.userId, name: "ada" },
    });
    opsKey = { value: created.key, id: created.apiKey.id };
    ownerKey = await createTestApiKey(handle, ["owner"]);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const entriesFor = (action: string) =>
    handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, handle.defaultTenant.id), eq(auditEvents.action, action)))
      .orderBy(asc(auditEvents.createdAt));
  const eventsOf = (type: string) =>
    handle.db
      .select()
      .from(events)
      .where(and(eq(events.tenantId, handle.defaultTenant.id), eq(events.type, type)))
      .orderBy(asc(events.id));
  const byOps = { actorKind: "api_key", actorName: "ops key" };

  it("records server registration, update and deletion, and the events say who", async () => {
    const server = {
      name: "audited",
      transport: "streamable-http",
      url: "http://127.0.0.1:9/mcp",
      enabled: false,
    };
    expect((await send(postServerRoute, "/api/v1/servers", { method: "POST", body: server })).status).toBe(
      201,
    );
    const patched = await send(patchServerRoute, "/api/v1/servers/audited", {
      method: "PATCH",
      body: { description: "now described" },
      params: { name: "audited" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const deleted = await send(deleteServerRoute, "/api/v1/servers/audited", {
      method: "DELETE",
      params: { name: "audited" },
    });
    expect(deleted.status).toBe(204);
    for (const action of ["server.registered", "server.updated", "server.deleted"]) {
      const [entry] = await entriesFor(action);
      expect(entry, action).toMatchObject({ ...byOps, actorId: opsKey.id, subject: "audited" });
      const [event] = await eventsOf(action);
      expect(event?.data, action).toMatchObject({ by: { kind: "api_key", id: opsKey.id, name: "ops key" } });
    }
  });

  it("records a secret's name when set or deleted — never its value", async () => {
    const put = await send(putSecretRoute, "/api/v1/secrets/github-token", {
      method: "PUT",
      body: { value: SECRET_VALUE },
      params: { name: "github-token" },
    });
    expect(put.status).toBe(201);
    const removed = await send(deleteSecretRoute, "/api/v1/secrets/github-token", {
      method: "DELETE",
      params: { name: "github-token" },
    });
    expect(removed.status).toBe(204);
    const [set] = await entriesFor("secret.set");
    const [deleted] = await entriesFor("secret.deleted");
    expect(set).toMatchObject({ ...byOps, subject: "github-token" });
    expect(deleted).toMatchObject({ ...byOps, subject: "github-token" });
    const everything = JSON.stringify([
      await handle.db.select().from(auditEvents),
      await handle.db.select().from(events),
    ]);
    expect(everything).not.toContain(SECRET_VALUE);
    const changes = (await eventsOf("policy.changed")).filter((e) => e.data.subject === "secret");
    expect(changes.map((e) => e.data.by)).toEqual([
      { kind: "api_key", id: opsKey.id, name: "ops key" },
      { kind: "api_key", id: opsKey.id, name: "ops key" },
    ]);
  });

  it("records principals and their grants", async () => {
    const created = await send(postPrincipalRoute, "/api/v1/principals", {
      method: "POST",
      body: { name: "audited-agent" },
    });
    expect(created.status).toBe(201);
    const id = created.body.principal.id as string;
    const granted = await send(putGrantsRoute, `/api/v1/principals/${id}/grants`, {
      method: "PUT",
      body: { patterns: ["demo__*"] },
      params: { id },
    });
    expect(granted.status).toBe(200);
    const deleted = await send(deletePrincipalRoute, `/api/v1/principals/${id}`, {
      method: "DELETE",
      params: { id },
    });
    expect(deleted.status).toBe(204);
    expect((await entriesFor("principal.created"))[0]).toMatchObject({ ...byOps, detail: "audited-agent" });
    expect((await entriesFor("principal.grants_changed"))[0]).toMatchObject({
      ...byOps,
      detail: expect.stringContaining("demo__*"),
    });
    expect((await entriesFor("principal.deleted"))[0]).toMatchObject({ ...byOps, detail: "audited-agent" });
    const changes = (await eventsOf("policy.changed")).filter((e) => e.data.subjectId === id);
    expect(changes.length).toBeGreaterThanOrEqual(2);
    for (const change of changes) expect(change.data.by).toMatchObject({ kind: "api_key", name: "ops key" });
  });

  it("records a tool's classification", async () => {
    const server = {
      name: "tooled",
      transport: "streamable-http",
      url: "http://127.0.0.1:9/mcp",
      enabled: false,
    };
    const registered = await send(postServerRoute, "/api/v1/servers", { method: "POST", body: server });
    const [tool] = await handle.db
      .insert(tools)
      .values({
        tenantId: handle.defaultTenant.id,
        serverId: registered.body.server.id,
        name: "drop_table",
        gatewayName: "tooled__drop_table",
        definition: { name: "drop_table", inputSchema: { type: "object" } },
        definitionHash: "h",
      })
      .returning();
    const id = tool?.id ?? "";
    const patched = await send(patchToolRoute, `/api/v1/tools/${id}`, {
      method: "PATCH",
      body: { effect: "destructive", approvalRule: "always" },
      params: { id },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const [entry] = await entriesFor("tool.policy_changed");
    expect(entry).toMatchObject({ ...byOps, subject: id });
    expect(entry?.detail).toMatch(/tooled__drop_table.*effect destructive.*approval always/);
    const [change] = (await eventsOf("policy.changed")).filter((e) => e.data.subjectId === id);
    expect(change?.data.by).toMatchObject({ kind: "api_key", name: "ops key" });
  });

  it("records approval, egress and instance policy changes", async () => {
    const approvals = await send(putApprovalsRoute, "/api/v1/policy/approvals", {
      method: "PUT",
      body: { requireApprovalFor: ["write", "destructive"], forbidSelfApproval: true },
    });
    expect(approvals.status).toBe(200);
    const egress = await send(putEgressRoute, "/api/v1/policy/egress", {
      method: "PUT",
      body: { http: { allowHosts: ["api.example.com"] } },
    });
    expect(egress.status, JSON.stringify(egress.body)).toBe(200);
    const instance = await sendTo_(putInstancePolicyRoute, ownerKey);
    expect(instance.status, JSON.stringify(instance.body)).toBe(200);
    expect((await entriesFor("policy.approvals_changed"))[0]).toMatchObject(byOps);
    expect((await entriesFor("policy.egress_changed"))[0]).toMatchObject(byOps);
    const [owner] = await handle.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "instance.policy_changed"));
    expect(owner).toMatchObject({ actorKind: "api_key", actorName: "test-owner" });
    const approvalChange = (await eventsOf("policy.changed")).find(
      (e) => e.data.subject === "approval_policy",
    );
    expect(approvalChange?.data.by).toMatchObject({ kind: "api_key", name: "ops key" });
  });

  it("shows each entry's actor by name over REST, even after the key is gone", async () => {
    const { body } = await send(auditRoute, "/api/v1/audit?action=secret");
    const entries = body.entries as Json[];
    expect(entries.length).toBe(2);
    for (const entry of entries)
      expect(entry.actor).toEqual({ kind: "api_key", id: opsKey.id, name: "ops key" });
  });

  async function sendTo_(route: typeof putInstancePolicyRoute, key: string) {
    const read = await senderAs(() => bearer(key))(
      putInstancePolicyRoute as never,
      "/api/v1/instance/policy",
      {
        method: "PUT",
        body: { workspaceCreation: "owners" },
      },
    );
    void route;
    return read;
  }
});

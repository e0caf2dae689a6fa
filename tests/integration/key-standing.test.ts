import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listKeysRoute, POST as postKeyRoute } from "@/app/api/v1/api-keys/route";
import { PATCH as patchMemberRoute } from "@/app/api/v1/members/[userId]/route";
import { POST as postPrincipalKeyRoute } from "@/app/api/v1/principals/[id]/keys/route";
import { GET as listSecretsRoute } from "@/app/api/v1/secrets/route";
import { auditEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { makeFirstOwner } from "@/lib/auth/instance-owners";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { createPrincipal } from "@/lib/principals/principals";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { createTestApiKey, createTestOperator, openProcessTestDatabase } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * A key acts with at most its creator's current rights (lib/auth/key-standing): what a demotion
 * or removal does to a person's keys, to keys those keys made, and to what it leaves alone (the
 * machine's bootstrap keys, principals' keys).
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("keys and their creator's standing", () => {
  let handle: ProcessDatabase;
  let machineKey: string;
  let ada: { userId: string };
  let adaKey: string;
  let childKey: string;
  const tenantId = () => handle.defaultTenant.id;
  const as = (key: string) => bearer(key);
  const secretsWith = (key: string) => sendTo(listSecretsRoute, "/api/v1/secrets", { headers: as(key) });

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    machineKey = await createTestApiKey(handle, ["admin"]);
    ada = await createTestOperator(handle, { email: "ada@example.com", role: "admin" });
    await createTestOperator(handle, { email: "bo@example.com", role: "admin" });
    adaKey = (
      await createApiKey(handle.db, {
        tenantId: tenantId(),
        input: { name: "ada-ci", scopes: ["admin"] },
        by: { kind: "operator", id: ada.userId, name: "ada" },
      })
    ).key;
    // A key made with Ada's key is Ada's too.
    const made = await sendTo(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      headers: as(adaKey),
      body: { name: "ada-ci-child", scopes: ["admin"] },
    });
    expect(made.status).toBe(201);
    expect(made.body.apiKey).toMatchObject({ creatorName: "ada", inactiveReason: null });
    childKey = made.body.key;
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("follows a demotion at once, for the key and the keys it made, and comes back with the role", async () => {
    expect((await secretsWith(adaKey)).status).toBe(200);
    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "approver" },
      by: null,
    });
    for (const key of [adaKey, childKey]) {
      const refused = await secretsWith(key);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/its creator, ada, is now an approver in this workspace/);
    }
    const listed = await sendTo(listKeysRoute, "/api/v1/api-keys", { headers: as(machineKey) });
    const byName = new Map((listed.body.apiKeys as Json[]).map((k) => [k.name, k]));
    expect(byName.get("ada-ci")?.inactiveReason).toBe("creator ada is now an approver");
    expect(byName.get("ada-ci-child")?.inactiveReason).toBe("creator ada is now an approver");
    expect(byName.get("test-admin")?.inactiveReason).toBeNull();

    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "admin" },
      by: null,
    });
    expect((await secretsWith(adaKey)).status).toBe(200);
    const actions = await handle.db
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId())));
    expect(actions.filter((a) => a.action === "api_key.deactivated")).toHaveLength(2);
    expect(actions.filter((a) => a.action === "api_key.reactivated")).toHaveLength(2);
  });

  it("a demoted admin's key cannot demote others or grant itself back (it has no rights left)", async () => {
    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "viewer" },
      by: null,
    });
    const attempt = await sendTo(patchMemberRoute, `/api/v1/members/${ada.userId}`, {
      method: "PATCH",
      headers: as(adaKey),
      body: { role: "admin" },
      params: { userId: ada.userId },
    });
    expect(attempt.status).toBe(403);
    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "admin" },
      by: null,
    });
  });

  it("keeps an owner scope while the creator is an instance owner, whatever their workspace role", async () => {
    await makeFirstOwner(handle.db, ada.userId);
    const ownerKey = await createApiKey(handle.db, {
      tenantId: tenantId(),
      input: { name: "ada-owner", scopes: ["admin", "owner"] },
      by: { kind: "operator", id: ada.userId, name: "ada" },
      instanceOwner: true,
    });
    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "viewer" },
      by: null,
    });
    const listed = await sendTo(listKeysRoute, "/api/v1/api-keys", { headers: as(machineKey) });
    const key = (listed.body.apiKeys as Json[]).find((k) => k.name === "ada-owner");
    expect(key?.inactiveReason).toBeNull();
    // Its admin scope is gone: workspace routes refuse it.
    expect((await secretsWith(ownerKey.key)).status).toBe(403);
    await changeMemberRole(handle.db, {
      tenantId: tenantId(),
      userId: ada.userId,
      input: { role: "admin" },
      by: null,
    });
  });

  it("stops every key of a removed creator with a 401 that says why, but not the agent keys they made", async () => {
    const agent = await createPrincipal(handle.db, {
      tenantId: tenantId(),
      input: { name: "ada-agent" },
      by: null,
    });
    const agentKey = await sendTo(postPrincipalKeyRoute, `/api/v1/principals/${agent.id}/keys`, {
      method: "POST",
      headers: as(adaKey),
      body: { name: "agent key" },
      params: { id: agent.id },
    });
    expect(agentKey.status).toBe(201);
    await removeMember(handle.db, { tenantId: tenantId(), userId: ada.userId, by: null });
    const refused = await secretsWith(childKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/its creator, ada, is no longer a member of this workspace/);
    const listed = await sendTo(listKeysRoute, "/api/v1/api-keys", { headers: as(machineKey) });
    const byName = new Map((listed.body.apiKeys as Json[]).map((k) => [k.name, k]));
    expect(byName.get("ada-ci")?.inactiveReason).toBe("creator ada was removed");
    expect(byName.get("agent key")?.inactiveReason).toBeNull();
    expect(byName.get("agent key")?.creatorName).toBe("ada");
  });

  it("leaves the machine's keys and the keys they make alone", async () => {
    const made = await sendTo(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      headers: as(machineKey),
      body: { name: "machine-child", scopes: ["admin"] },
    });
    expect(made.body.apiKey).toMatchObject({ creatorName: null, inactiveReason: null });
    expect((await secretsWith(made.body.key)).status).toBe(200);
  });
});

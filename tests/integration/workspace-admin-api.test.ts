import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE as revokeKeyRoute } from "@/app/api/v1/api-keys/[id]/route";
import { GET as listKeysRoute, POST as postKeyRoute } from "@/app/api/v1/api-keys/route";
import { DELETE as revokeInvitationRoute } from "@/app/api/v1/invitations/[id]/route";
import { GET as listInvitationsRoute, POST as postInvitationRoute } from "@/app/api/v1/invitations/route";
import { PATCH as patchMemberRoute, DELETE as removeMemberRoute } from "@/app/api/v1/members/[userId]/route";
import { GET as listMembersRoute } from "@/app/api/v1/members/route";
import { auditEvents } from "@/db/schema";
import { resolveActor } from "@/lib/auth/actor";
import { verifyApiKey } from "@/lib/auth/api-keys";
import { getInvitation } from "@/lib/auth/invitations";
import { signIn } from "@/lib/auth/sign-in";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import {
  createTestAgent,
  createTestApiKey,
  createTestOperator,
  openProcessTestDatabase,
} from "../fixtures/databases";
import { type Json, senderAs } from "../fixtures/route-request";

/*
 * What Settings → API keys and Settings → Members do, over REST (the CLI's `keys` and `members`
 * use these): keys shown once and revoked for good, roles changed with at least one admin kept,
 * members removed, invitation links made — each audited as the key that did it.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("workspace API keys, members and invitations over REST", () => {
  let handle: ProcessDatabase;
  let adminKey: string;
  let admin: Record<string, string>;
  let viewer: { userId: string; cookie: string };

  const send = senderAs(() => admin);

  const auditOf = (action: "api_key.created" | "member.role_changed" | "member.removed" | "member.invited") =>
    handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, handle.defaultTenant.id), eq(auditEvents.action, action)));

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    adminKey = await createTestApiKey(handle, ["admin"]);
    admin = { authorization: `Bearer ${adminKey}` };
    viewer = await createTestOperator(handle, { email: "vera@example.com", role: "viewer" });
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("creates a key shown once, lists it without its value, and revokes it for good", async () => {
    const created = await send(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      body: { name: "ci-deploy", scopes: ["admin", "admin"] },
    });
    expect(created.status).toBe(201);
    const { key, apiKey } = created.body as { key: string; apiKey: Json };
    expect(key).toMatch(/^sb_/);
    expect(apiKey).toMatchObject({ name: "ci-deploy", scopes: ["admin"], revokedAt: null });
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    // The new key works at once, as an admin.
    expect(await resolveActor(handle.db, new Headers({ authorization: `Bearer ${key}` }))).toMatchObject({
      kind: "api_key",
      role: "admin",
    });

    const agent = await createTestAgent(handle.db, {
      tenantId: handle.defaultTenant.id,
      name: "laptop-agent",
    });
    const listed = await send(listKeysRoute, "/api/v1/api-keys");
    expect(listed.status).toBe(200);
    const byName = new Map(listed.body.apiKeys.map((k: Json) => [k.name, k]));
    expect(byName.get("ci-deploy")).toMatchObject({ principalId: null, principalName: null });
    // An agent's key says whose it is.
    expect(byName.get("laptop-agent key")).toMatchObject({
      principalId: agent.id,
      principalName: "laptop-agent",
      scopes: ["gateway"],
    });
    expect(JSON.stringify(listed.body)).not.toContain(key);

    // Audited as the key that made it, not as an anonymous "system".
    const adminKeyId = (await verifyApiKey(handle.db, adminKey)).id;
    expect((await auditOf("api_key.created")).find((e) => e.subject === apiKey.id)).toMatchObject({
      actorKind: "api_key",
      actorId: adminKeyId,
    });

    const revoked = await send(revokeKeyRoute, `/api/v1/api-keys/${apiKey.id}`, {
      method: "DELETE",
      params: { id: apiKey.id },
    });
    expect(revoked.status).toBe(204);
    await expect(resolveActor(handle.db, new Headers({ authorization: `Bearer ${key}` }))).rejects.toThrow(
      /revoked/,
    );
    const again = await send(revokeKeyRoute, `/api/v1/api-keys/${apiKey.id}`, {
      method: "DELETE",
      params: { id: apiKey.id },
    });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/no active API key/);
    const relisted = await send(listKeysRoute, "/api/v1/api-keys");
    expect(relisted.body.apiKeys.find((k: Json) => k.id === apiKey.id).revokedAt).not.toBeNull();
  });

  it("refuses a key without a name or with an unknown scope, saying why; a viewer may list but not create", async () => {
    const noName = await send(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      body: { name: " ", scopes: ["admin"] },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/Give the key a name/);
    const badScope = await send(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      body: { name: "x", scopes: ["root"] },
    });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.message).toMatch(/Scopes are admin and owner/);

    const asViewer = { cookie: viewer.cookie };
    expect((await send(listKeysRoute, "/api/v1/api-keys", { headers: asViewer })).status).toBe(200);
    const refused = await send(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      headers: asViewer,
      body: { name: "mine", scopes: ["admin"] },
    });
    expect(refused.status).toBe(403);
  });

  it("changes a member's role, keeps the last admin, and removes a member, who loses access", async () => {
    const ada = await createTestOperator(handle, { email: "ada@example.com", role: "admin" });
    const sam = await createTestOperator(handle, { email: "sam@example.com", role: "viewer" });

    const beforeSignIn = Date.now();
    await signIn(handle.db, {
      input: { email: "ada@example.com", password: "a test password" },
      headers: new Headers(),
    });
    const members = await send(listMembersRoute, "/api/v1/members");
    expect(members.status).toBe(200);
    // When each last signed in, from the audit trail: Ada just now, Sam never.
    const byEmail = new Map((members.body.members as Json[]).map((m) => [m.email, m]));
    // (the database's clock, in this same process: at most a millisecond's rounding apart)
    expect(Date.parse(byEmail.get("ada@example.com")?.lastSignedInAt)).toBeGreaterThanOrEqual(
      beforeSignIn - 1,
    );
    expect(byEmail.get("sam@example.com")?.lastSignedInAt).toBeNull();
    expect(members.body.members.map((m: Json) => [m.email, m.role])).toEqual(
      expect.arrayContaining([
        ["ada@example.com", "admin"],
        ["sam@example.com", "viewer"],
      ]),
    );

    const promoted = await send(patchMemberRoute, `/api/v1/members/${sam.userId}`, {
      method: "PATCH",
      params: { userId: sam.userId },
      body: { role: "approver" },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.member).toMatchObject({ email: "sam@example.com", role: "approver" });
    expect(await resolveActor(handle.db, new Headers({ cookie: sam.cookie }))).toMatchObject({
      role: "approver",
    });

    const badRole = await send(patchMemberRoute, `/api/v1/members/${sam.userId}`, {
      method: "PATCH",
      params: { userId: sam.userId },
      body: { role: "owner" },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.message).toMatch(/Pick a role/);

    const lastAdmin = await send(patchMemberRoute, `/api/v1/members/${ada.userId}`, {
      method: "PATCH",
      params: { userId: ada.userId },
      body: { role: "viewer" },
    });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.body.error.message).toMatch(/at least one admin/);

    const stranger = await send(removeMemberRoute, "/api/v1/members/nobody", {
      method: "DELETE",
      params: { userId: "nobody" },
    });
    expect(stranger.status).toBe(404);

    const removed = await send(removeMemberRoute, `/api/v1/members/${sam.userId}`, {
      method: "DELETE",
      params: { userId: sam.userId },
    });
    expect(removed.status).toBe(204);
    await expect(resolveActor(handle.db, new Headers({ cookie: sam.cookie }))).rejects.toThrow(
      /not a member of any workspace/,
    );
    expect((await auditOf("member.removed")).find((e) => e.subject === sam.userId)).toMatchObject({
      actorKind: "api_key",
    });
  });

  it("makes an invitation link for a role, lists it while pending and revokes it; a bad role or a viewer is refused", async () => {
    const made = await send(postInvitationRoute, "/api/v1/invitations", {
      method: "POST",
      body: { role: "approver" },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ role: "approver" });
    const token = /\/invite\/([\w-]+)$/.exec(made.body.url)?.[1] ?? "";
    expect(await getInvitation(handle.db, { token })).toMatchObject({ role: "approver", isUsable: true });
    expect((await auditOf("member.invited")).at(-1)).toMatchObject({ actorKind: "api_key" });

    // Listed while pending (made by a key, so no person's name), then revoked: the link is dead.
    const pending = await send(listInvitationsRoute, "/api/v1/invitations");
    expect(pending.body.invitations).toEqual([
      expect.objectContaining({ id: made.body.id, role: "approver", invitedBy: null }),
    ]);
    const revoke = () =>
      send(revokeInvitationRoute, `/api/v1/invitations/${made.body.id}`, {
        method: "DELETE",
        params: { id: made.body.id },
      });
    expect((await revoke()).status).toBe(204);
    expect(await getInvitation(handle.db, { token })).toMatchObject({ isUsable: false });
    expect((await send(listInvitationsRoute, "/api/v1/invitations")).body.invitations).toEqual([]);
    const again = await revoke();
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/no pending invitation/);
    expect(
      (await send(listInvitationsRoute, "/api/v1/invitations", { headers: { cookie: viewer.cookie } }))
        .status,
    ).toBe(403);

    const badRole = await send(postInvitationRoute, "/api/v1/invitations", {
      method: "POST",
      body: { role: "root" },
    });
    expect(badRole.status).toBe(400);
    const asViewer = await send(postInvitationRoute, "/api/v1/invitations", {
      method: "POST",
      headers: { cookie: viewer.cookie },
      body: { role: "admin" },
    });
    expect(asViewer.status).toBe(403);
  });
});

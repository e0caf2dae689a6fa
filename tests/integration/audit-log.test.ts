import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postKeyRoute } from "@/app/api/v1/api-keys/route";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { POST as postInvitationRoute } from "@/app/api/v1/invitations/route";
import { memberships } from "@/db/schema";
import { signIn } from "@/lib/auth/sign-in";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { createWorkspace } from "@/lib/tenancy/workspaces";
import { headersFrom } from "../fixtures/connection";
import { createTestApiKey, createTestOperator, openProcessTestDatabase } from "../fixtures/databases";
import { bearer, type Json, senderAs } from "../fixtures/route-request";

/*
 * The audit trail as a workspace's admins read it (Settings → Audit log, GET /api/v1/audit): its
 * own entries and its members' sign-ins, never another workspace's or strangers' attempts; named
 * actors and subjects; filters; pages that neither skip nor repeat an entry.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("the audit log over REST", () => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let other: Record<string, string>;
  const send = senderAs(() => admin);
  const audit = async (query = "", headers = admin) => send(auditRoute, `/api/v1/audit${query}`, { headers });
  const signInAs = (email: string, password: string) =>
    signIn(handle.db, {
      input: { email, password },
      // The socket's peer is recorded; what the client wrote in X-Forwarded-For is not.
      headers: headersFrom("203.0.113.7", { "x-forwarded-for": "6.6.6.6" }),
    }).catch(() => undefined);

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    admin = bearer(await createTestApiKey(handle, ["admin"]));
    // A member of this workspace, and someone who is only in another one.
    await createTestOperator(handle, { email: "mia@example.com", role: "approver" });
    const outsider = await createTestOperator(handle, { email: "olaf@example.com", role: "viewer" });
    const elsewhere = await createWorkspace(handle.db, {
      userId: outsider.userId,
      instanceOwner: true,
      input: { name: "Elsewhere" },
    });
    await handle.db
      .delete(memberships)
      .where(and(eq(memberships.userId, outsider.userId), eq(memberships.tenantId, handle.defaultTenant.id)));
    other = bearer(await createTestApiKey(handle, ["admin"], elsewhere.id));

    await signInAs("mia@example.com", "a test password");
    await signInAs("mia@example.com", "wrong password");
    await signInAs("olaf@example.com", "a test password");
    await signInAs("stranger@example.com", "whatever");
    await send(postKeyRoute, "/api/v1/api-keys", {
      method: "POST",
      body: { name: "deploy", scopes: ["admin"] },
    });
    await send(postInvitationRoute, "/api/v1/invitations", {
      method: "POST",
      headers: other,
      body: { role: "viewer" },
    });
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("shows this workspace's entries and its members' sign-ins, named, newest first — nothing else", async () => {
    const { status, body } = await audit();
    expect(status).toBe(200);
    const entries = body.entries as Json[];
    expect(entries.map((e) => [e.action, e.subject])).toEqual([
      ["api_key.created", "key deploy"],
      ["auth.sign_in_failed", "mia@example.com"],
      ["auth.signed_in", "mia@example.com"],
      ["api_key.created", "key test-admin"],
    ]);
    const [created, failed, signedIn, bootstrapKey] = entries as [Json, Json, Json, Json];
    expect(bootstrapKey.actor).toMatchObject({ kind: "system", name: null });
    expect(created.actor).toMatchObject({ kind: "api_key", name: "test-admin" });
    expect(created.detail).toBe("deploy (admin)");
    expect(failed).toMatchObject({ actor: { kind: "anonymous", name: null }, ipAddress: "203.0.113.7" });
    expect(signedIn.actor).toMatchObject({ kind: "operator", name: "mia" });
    // Not the outsider's sign-in, not a stranger's attempt, not the other workspace's invitation.
    const text = JSON.stringify(body);
    expect(text).not.toContain("olaf@example.com");
    expect(text).not.toContain("stranger@example.com");
    expect(text).not.toContain("member.invited");

    const theirs = await audit("", other);
    expect((theirs.body.entries as Json[]).map((e) => e.action)).toEqual([
      "member.invited",
      "auth.signed_in",
      "api_key.created",
      "workspace.created",
    ]);
    expect(theirs.body.entries[0].subject).toMatch(/^invitation [\w-]+$/);
  });

  it("filters by a group or one action; a malformed filter is a 400 that says what is expected", async () => {
    const signIns = await audit("?action=auth");
    expect((signIns.body.entries as Json[]).map((e) => e.action)).toEqual([
      "auth.sign_in_failed",
      "auth.signed_in",
    ]);
    const exact = await audit("?action=auth.signed_in");
    expect((exact.body.entries as Json[]).map((e) => e.action)).toEqual(["auth.signed_in"]);
    const bad = await audit("?action=auth%25");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/an action \("member.invited"\) or a group/);
    expect((await audit("?limit=0")).status).toBe(400);
    const keys = await audit("?action=api_key");
    expect(new Set((keys.body.entries as Json[]).map((e) => e.action))).toEqual(new Set(["api_key.created"]));
    const unknownCursor = await audit("?cursor=not-one-of-ours");
    expect(unknownCursor.status).toBe(400);
    expect(unknownCursor.body.error.message).toMatch(/cursor is not valid/);
  });

  it("pages with a cursor, newest first, without skipping or repeating an entry", async () => {
    for (let i = 0; i < 5; i++)
      await send(postKeyRoute, "/api/v1/api-keys", {
        method: "POST",
        body: { name: `k${i}`, scopes: ["admin"] },
      });
    const all = (await audit()).body.entries as Json[];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Json } = await audit(`?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...(page.body.entries as Json[]).map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
    expect(all).toHaveLength(9);
  });

  it("is for admins: a viewer's session is refused", async () => {
    const viewer = await createTestOperator(handle, { email: "vic@example.com", role: "viewer" });
    expect((await audit("", { cookie: viewer.cookie })).status).toBe(403);
  });
});

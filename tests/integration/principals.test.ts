import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getGrantsRoute, PUT as putGrantsRoute } from "@/app/api/v1/principals/[id]/grants/route";
import { DELETE as revokeKeyRoute } from "@/app/api/v1/principals/[id]/keys/[keyId]/route";
import { POST as postKeyRoute } from "@/app/api/v1/principals/[id]/keys/route";
import { DELETE as deletePrincipalRoute, GET as getPrincipalRoute } from "@/app/api/v1/principals/[id]/route";
import { GET as listPrincipalsRoute, POST as postPrincipalRoute } from "@/app/api/v1/principals/route";
import { resolveActor } from "@/lib/auth/actor";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import {
  createTestApiKey,
  createTestOperator,
  drivers,
  openProcessTestDatabase,
} from "../fixtures/databases";
import { senderAs } from "../fixtures/route-request";

/* Principals over REST: create, a key shown once (gateway-only), grants replaced as a set. */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("principals REST on %s", (driver) => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;

  const send = senderAs(() => admin);

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    admin = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    viewer = {
      cookie: (await createTestOperator(handle, { email: "v@example.com", role: "viewer" })).cookie,
    };
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("creates a principal, gives it a gateway key shown once, and replaces its grants as a set", async () => {
    const created = await send(postPrincipalRoute, "/api/v1/principals", {
      method: "POST",
      body: { name: "claude-code", description: "Laptop agent" },
    });
    expect(created.status).toBe(201);
    const id = created.body.principal.id as string;
    expect(created.body.principal).toMatchObject({
      name: "claude-code",
      description: "Laptop agent",
      grants: [],
      keys: [],
    });
    expect(
      (
        await send(postPrincipalRoute, "/api/v1/principals", {
          method: "POST",
          body: { name: "claude-code" },
        })
      ).status,
    ).toBe(409);
    expect(
      (await send(postPrincipalRoute, "/api/v1/principals", { method: "POST", body: { name: "has spaces" } }))
        .status,
    ).toBe(400);

    const key = await send(postKeyRoute, `/api/v1/principals/${id}/keys`, {
      method: "POST",
      body: { name: "laptop" },
      params: { id },
    });
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^sb_/);
    expect(key.body.apiKey).toMatchObject({ name: "laptop", scopes: ["gateway"], principalId: id });
    const actor = await resolveActor(handle.db, new Headers({ authorization: `Bearer ${key.body.key}` }));
    expect(actor).toMatchObject({ kind: "api_key", principalId: id, scopes: ["gateway"], role: null });
    // Scopes cannot be smuggled in: a principal's key is always gateway-only.
    expect(
      (
        await send(postKeyRoute, `/api/v1/principals/${id}/keys`, {
          method: "POST",
          body: { name: "x", scopes: ["admin"] },
          params: { id },
        })
      ).status,
    ).toBe(400);

    const grants = await send(putGrantsRoute, `/api/v1/principals/${id}/grants`, {
      method: "PUT",
      body: { patterns: ["github__*", "local-tools__echo", "github__*"] },
      params: { id },
    });
    expect({ status: grants.status, body: grants.body }).toEqual({
      status: 200,
      body: { patterns: ["github__*", "local-tools__echo"] },
    });
    const replaced = await send(putGrantsRoute, `/api/v1/principals/${id}/grants`, {
      method: "PUT",
      body: { patterns: ["*"] },
      params: { id },
    });
    expect(replaced.body.patterns).toEqual(["*"]);
    const bad = await send(putGrantsRoute, `/api/v1/principals/${id}/grants`, {
      method: "PUT",
      body: { patterns: ["GitHub__*"] },
      params: { id },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fieldErrors).toHaveProperty("patterns.0");
    expect(
      (await send(getGrantsRoute, `/api/v1/principals/${id}/grants`, { params: { id }, headers: viewer }))
        .body.patterns,
    ).toEqual(["*"]);

    const listed = await send(listPrincipalsRoute, "/api/v1/principals", { headers: viewer });
    expect(listed.body.principals[0]).toMatchObject({
      id,
      grants: ["*"],
      keys: [{ name: "laptop", revokedAt: null }],
    });

    const keyId = key.body.apiKey.id as string;
    expect(
      (
        await send(revokeKeyRoute, `/api/v1/principals/${id}/keys/${keyId}`, {
          method: "DELETE",
          params: { id, keyId },
        })
      ).status,
    ).toBe(204);
    await expect(
      resolveActor(handle.db, new Headers({ authorization: `Bearer ${key.body.key}` })),
    ).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("only admins change principals; deleting one takes its keys and grants", async () => {
    expect(
      (
        await send(postPrincipalRoute, "/api/v1/principals", {
          method: "POST",
          body: { name: "nope" },
          headers: viewer,
        })
      ).status,
    ).toBe(403);
    const { body } = await send(postPrincipalRoute, "/api/v1/principals", {
      method: "POST",
      body: { name: "short-lived" },
    });
    const id = body.principal.id as string;
    const key = await send(postKeyRoute, `/api/v1/principals/${id}/keys`, {
      method: "POST",
      body: { name: "k" },
      params: { id },
    });
    expect(
      (
        await send(putGrantsRoute, `/api/v1/principals/${id}/grants`, {
          method: "PUT",
          body: { patterns: ["*"] },
          params: { id },
          headers: viewer,
        })
      ).status,
    ).toBe(403);
    expect(
      (await send(deletePrincipalRoute, `/api/v1/principals/${id}`, { method: "DELETE", params: { id } }))
        .status,
    ).toBe(204);
    expect((await send(getPrincipalRoute, `/api/v1/principals/${id}`, { params: { id } })).status).toBe(404);
    await expect(
      resolveActor(handle.db, new Headers({ authorization: `Bearer ${key.body.key}` })),
    ).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

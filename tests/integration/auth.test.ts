import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listServersRoute } from "@/app/api/v1/servers/route";
import { apiKeys, auditEvents, memberships, users } from "@/db/schema";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { completeSetup, issueSetupToken } from "@/lib/auth/setup";
import { signIn } from "@/lib/auth/sign-in";
import { AppError } from "@/lib/errors";
import { recordListeningAddresses } from "@/lib/http/listening";
import { bootstrapDatabase } from "@/lib/runtime/bootstrap";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { headersFrom } from "../fixtures/connection";
import { drivers, openProcessTestDatabase, openTestDatabase } from "../fixtures/databases";

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
afterAll(() => {
  vi.unstubAllEnvs();
});

const list = (headers: Record<string, string>) =>
  listServersRoute(new Request("http://127.0.0.1:3000/api/v1/servers", { headers }), {
    params: Promise.resolve({}),
  });

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe.each(drivers)("auth on %s", (driver) => {
  let handle: ProcessDatabase;
  const admin = { name: "Ada", email: "ada@example.com", password: "a long password" };

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("first-run setup creates the admin of the existing workspace, once", async () => {
    await completeSetup(handle.db, { input: admin, headers: headersFrom("127.0.0.1") });
    const [user] = await handle.db.select().from(users).where(eq(users.email, admin.email));
    const [membership] = await handle.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, user?.id ?? ""));
    expect(membership).toMatchObject({ tenantId: handle.defaultTenant.id, role: "admin" });

    const again = await errorOf(
      completeSetup(handle.db, {
        input: { ...admin, email: "eve@example.com" },
        headers: headersFrom("127.0.0.1"),
      }),
    );
    expect(again.code).toBe("conflict");
  });

  it("signs in with the right password and audits it", async () => {
    await signIn(handle.db, {
      input: { email: "ADA@example.com ", password: admin.password },
      headers: new Headers(),
    });
    const rows = await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "auth.signed_in"));
    expect(rows.map((r) => r.subject)).toContain(admin.email);
  });

  it("gives one answer for a wrong password and an unknown email, and locks after five failures", async () => {
    const wrong = await errorOf(
      signIn(handle.db, { input: { email: admin.email, password: "nope" }, headers: new Headers() }),
    );
    const unknown = await errorOf(
      signIn(handle.db, { input: { email: "nobody@example.com", password: "nope" }, headers: new Headers() }),
    );
    expect([wrong.code, wrong.message]).toEqual(["unauthenticated", "Wrong email or password."]);
    expect(unknown.message).toBe(wrong.message);

    for (let i = 0; i < 4; i++) {
      await errorOf(
        signIn(handle.db, { input: { email: admin.email, password: "nope" }, headers: new Headers() }),
      );
    }
    // Even the right password is refused now, without being checked.
    const locked = await errorOf(
      signIn(handle.db, { input: { email: admin.email, password: admin.password }, headers: new Headers() }),
    );
    expect(locked.code).toBe("rate_limited");
    expect(locked.status).toBe(429);
    const failures = await handle.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.sign_in_failed"));
    expect(failures.filter((f) => f.subject === admin.email)).toHaveLength(5);
  });

  it("answers 401 with a reason for malformed, unknown and revoked keys", async () => {
    const { createTestApiKey } = await import("../fixtures/databases");
    const key = await createTestApiKey(handle, ["admin"]);
    expect((await list({ authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await list({ "x-api-key": key })).status).toBe(200);

    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ authorization: "Basic abc" }, /Malformed Authorization header/],
      [{ authorization: "Bearer" }, /Malformed Authorization header/],
      [{ authorization: "Bearer not-a-key-at-all-000000" }, /not a Switchboard API key/],
      [{ authorization: `Bearer sb_${"x".repeat(43)}` }, /not valid/],
    ];
    for (const [headers, message] of cases) {
      const res = await list(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect((await res.json()).error.message).toMatch(message);
    }

    // A value with our prefix is told it is not a valid key, not that keys start with sb_ (it does),
    // and in the very words an unknown key gets: short, cut off or made up, nothing tells them apart.
    const unknown = (await (await list({ authorization: `Bearer sb_${"x".repeat(43)}` })).json()).error;
    for (const value of ["sb_bogus", "sb_", key.slice(0, 12), `${key}x`, "sb_ünïcode key"]) {
      const res = await list({ "x-api-key": value });
      expect(res.status, value).toBe(401);
      const { error } = await res.json();
      expect(error.message, value).toMatch(/^The API key is not valid/);
      expect(error.message, value).not.toMatch(/start with sb_/);
      expect(error, value).toEqual(unknown);
    }

    const [row] = await handle.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, key.slice(0, 9)));
    expect(row?.lastUsedAt).not.toBeNull();
    await revokeApiKey(handle.db, { tenantId: handle.defaultTenant.id, id: row?.id ?? "", by: null });
    const revoked = await list({ authorization: `Bearer ${key}` });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).error.message).toMatch(/revoked/);
  });
});

describe.each(drivers)("headless bootstrap and the setup token on %s", (driver) => {
  it("creates an admin key of exactly the given value on an empty database only", async () => {
    const handle = await openTestDatabase(driver);
    const value = "sb_bootstrap-value-for-tests-123456";
    await bootstrapDatabase(handle.db, { seedDemoServers: false, bootstrapApiKey: value });
    await bootstrapDatabase(handle.db, {
      seedDemoServers: false,
      bootstrapApiKey: "sb_another-value-ignored-000000",
    });
    const keys = await handle.db.select().from(apiKeys);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      name: "bootstrap",
      scopes: ["admin", "owner"],
      prefix: value.slice(0, 9),
    });
    await handle.close();
  });

  it("asks for the printed token when Switchboard's socket listens beyond loopback", async () => {
    recordListeningAddresses(["0.0.0.0"]);
    const handle = await openProcessTestDatabase(driver);
    const token = await issueSetupToken(handle.db);
    const input = { name: "Ada", email: "ada@example.com", password: "a long password" };
    // Even from this machine: HOST or a loopback peer says nothing about who else can connect.
    const refused = await errorOf(
      completeSetup(handle.db, {
        input: { ...input, setupToken: "guess" },
        headers: headersFrom("127.0.0.1"),
      }),
    );
    expect(refused.fieldErrors?.setupToken).toBeDefined();
    expect(await handle.db.select().from(users)).toHaveLength(0);
    await completeSetup(handle.db, {
      input: { ...input, setupToken: token },
      headers: headersFrom("127.0.0.1"),
    });
    expect(await handle.db.select().from(users)).toHaveLength(1);
    recordListeningAddresses(["127.0.0.1"]);
    await handle.close();
  });

  it("asks for the token on loopback too, unless the request provably comes from this machine", async () => {
    const handle = await openProcessTestDatabase(driver);
    const input = { name: "Ada", email: "ada@example.com", password: "a long password" };
    for (const headers of [
      headersFrom("192.0.2.2", { "x-forwarded-for": "127.0.0.1" }),
      headersFrom("127.0.0.1", { "x-forwarded-for": "127.0.0.1" }),
      headersFrom("127.0.0.1", { forwarded: "for=127.0.0.1" }),
      // Not through server.mjs: whatever the request says about itself.
      new Headers({ "x-forwarded-for": "127.0.0.1" }),
    ]) {
      const refused = await errorOf(completeSetup(handle.db, { input, headers }));
      expect(refused.fieldErrors?.setupToken).toBeDefined();
    }
    expect(await handle.db.select().from(users)).toHaveLength(0);
    await handle.close();
  });
});

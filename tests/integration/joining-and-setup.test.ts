import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { instanceOwners, memberships, users } from "@/db/schema";
import { getAuth } from "@/lib/auth/better-auth";
import { createInvitation, listPendingInvitations } from "@/lib/auth/invitations";
import { joinRefusal, joinWithNewAccount } from "@/lib/auth/join-workspace";
import { completeSetup, needsSetup } from "@/lib/auth/setup";
import { AppError } from "@/lib/errors";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { headersFrom } from "../fixtures/connection";
import { createTestAccount, drivers, openProcessTestDatabase } from "../fixtures/databases";

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
afterAll(() => {
  vi.unstubAllEnvs();
});

const password = "a long enough password";
const refusal = joinRefusal().message;

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe.each(drivers)("accounts come only from an invitation or setup, on %s", (driver) => {
  let handle: ProcessDatabase;
  const join = (token: string, email: string) =>
    joinWithNewAccount(handle.db, {
      token,
      input: { name: "Someone", email, password },
      headers: new Headers(),
    });
  const invite = async () => {
    const { url } = await createInvitation(handle.db, {
      tenantId: handle.defaultTenant.id,
      input: { role: "viewer" },
      by: null,
    });
    return url.split("/").pop() as string;
  };
  const accountOf = async (email: string) =>
    (await handle.db.select().from(users).where(eq(users.email, email)))[0];

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("refuses a made-up token and an email with an account alike, creating and using nothing", async () => {
    const bogus = await errorOf(join("made-up-token", "mallory@example.com"));
    expect([bogus.code, bogus.message]).toEqual(["forbidden", refusal]);
    expect(await accountOf("mallory@example.com")).toBeUndefined();

    await createTestAccount(handle, { email: "ivy@example.com" });
    const token = await invite();
    const taken = await errorOf(join(token, "ivy@example.com"));
    expect([taken.code, taken.message]).toEqual(["forbidden", refusal]);
    const pending = await listPendingInvitations(handle.db, { tenantId: handle.defaultTenant.id });
    expect(pending).toHaveLength(1);

    await join(token, "june@example.com");
    const june = await accountOf("june@example.com");
    const [membership] = await handle.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, june?.id ?? ""));
    expect(membership?.role).toBe("viewer");
    expect((await errorOf(join(token, "jules@example.com"))).message).toBe(refusal);
    expect(await accountOf("jules@example.com")).toBeUndefined();
  });

  it("lets one of two joins with the same link win", async () => {
    const token = await invite();
    const outcomes = await Promise.allSettled([
      join(token, "kim@example.com"),
      join(token, "lee@example.com"),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const made = [await accountOf("kim@example.com"), await accountOf("lee@example.com")].filter(Boolean);
    expect(made).toHaveLength(1);
  });

  it("better-auth's own sign-up is closed", async () => {
    await expect(
      getAuth(handle.db).api.signUpEmail({ body: { name: "Open", email: "open@example.com", password } }),
    ).rejects.toThrow();
    expect(await accountOf("open@example.com")).toBeUndefined();
  });

  it("accounts made by invitation do not count as set up; of concurrent setups exactly one wins", async () => {
    expect(await needsSetup(handle.db)).toBe(true);
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        completeSetup(handle.db, {
          input: { name: `Admin ${i}`, email: `admin-${i}@example.com`, password },
          headers: headersFrom("127.0.0.1"), // from this machine: no setup token needed
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") {
        expect((outcome.reason as AppError).code).toBe("conflict");
        expect((outcome.reason as AppError).message).toMatch(/already set up/);
      }
    }
    expect(await handle.db.select().from(instanceOwners)).toHaveLength(1);
    const admins = await Promise.all([0, 1, 2].map((i) => accountOf(`admin-${i}@example.com`)));
    expect(admins.filter(Boolean)).toHaveLength(1);
    expect(await needsSetup(handle.db)).toBe(false);
  });
});

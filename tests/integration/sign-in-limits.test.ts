import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reserveSignInAttempt } from "@/lib/auth/sign-in-limits";
import type { DatabaseHandle } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { drivers, openTestDatabase } from "../fixtures/databases";

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Reserves `n` attempts at once; returns how many were granted and the refusals. */
async function reserveAtOnce(
  handle: DatabaseHandle,
  attempts: Array<{ email: string; address: string | null }>,
) {
  const outcomes = await Promise.allSettled(attempts.map((a) => reserveSignInAttempt(handle.db, a)));
  const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as AppError] : []));
  return { granted: outcomes.length - refused.length, refused };
}

describe.each(drivers)("sign-in limits on %s", (driver) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("grants 5 of 30 concurrent attempts on one account, and says when to retry", async () => {
    const { granted, refused } = await reserveAtOnce(
      handle,
      Array.from({ length: 30 }, () => ({ email: "ada@example.com", address: null })),
    );
    expect(granted).toBe(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe("rate_limited");
      expect(error.message).toMatch(/for this account\. Try again in 15 minutes\./);
      expect(error.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    }
  });

  it("gives an attempt back when released (a successful sign-in)", async () => {
    const first = await reserveSignInAttempt(handle.db, { email: "bo@example.com", address: null });
    for (let i = 0; i < 4; i++)
      await reserveSignInAttempt(handle.db, { email: "bo@example.com", address: null });
    await first.release();
    await reserveSignInAttempt(handle.db, { email: "bo@example.com", address: null });
    await expect(reserveSignInAttempt(handle.db, { email: "bo@example.com", address: null })).rejects.toThrow(
      /Too many failed sign-ins for this account/,
    );
  });

  it("limits one address across accounts to 20, and an account refusal leaves the address's allowance alone", async () => {
    const address = "203.0.113.7";
    // Locked account first: refused by the account rule, which must not use up the address.
    for (let i = 0; i < 5; i++)
      await reserveSignInAttempt(handle.db, { email: "cy@example.com", address: null });
    const locked = await reserveAtOnce(
      handle,
      Array.from({ length: 10 }, () => ({ email: "cy@example.com", address })),
    );
    expect(locked.granted).toBe(0);

    const { granted, refused } = await reserveAtOnce(
      handle,
      Array.from({ length: 30 }, (_, i) => ({ email: `guess-${i}@example.com`, address })),
    );
    expect(granted).toBe(20);
    for (const error of refused) expect(error.message).toMatch(/from this address/);
    // Another address is not affected.
    await reserveSignInAttempt(handle.db, { email: "guess-0@example.com", address: "203.0.113.8" });
  });
});

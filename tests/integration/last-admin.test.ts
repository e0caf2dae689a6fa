import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships } from "@/db/schema";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import type { DatabaseDriver } from "@/lib/db/client";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { createTestOperator, drivers, openProcessTestDatabase } from "../fixtures/databases";

/*
 * A workspace keeps at least one admin even when its last two admins are demoted (or removed) at
 * the same moment, from two connections: on PostgreSQL the check and the change hold a lock on
 * the workspace's admin memberships, so the second sees the first's result.
 */

describe.each(drivers)("the last admin under concurrent changes (%s)", (driver: DatabaseDriver) => {
  let handle: ProcessDatabase;
  let admins: [string, string];

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    const a = await createTestOperator(handle, { email: "a@example.com", role: "admin" });
    const b = await createTestOperator(handle, { email: "b@example.com", role: "admin" });
    admins = [a.userId, b.userId];
  });
  afterAll(async () => {
    await handle?.close();
  });

  const tenantId = () => handle.defaultTenant.id;
  const adminCount = async () =>
    (
      await handle.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.tenantId, tenantId()), eq(memberships.role, "admin")))
    ).length;
  const makeBothAdmins = () =>
    handle.db.update(memberships).set({ role: "admin" }).where(eq(memberships.tenantId, tenantId()));

  it("two demotions at once: one wins, one is refused, one admin is left", async () => {
    // Several rounds: without the lock, two transactions that both count two admins race through.
    for (let round = 0; round < 8; round++) {
      await makeBothAdmins();
      const results = await Promise.allSettled(
        admins.map((userId) =>
          changeMemberRole(handle.db, { tenantId: tenantId(), userId, input: { role: "viewer" }, by: null }),
        ),
      );
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual(["fulfilled", "rejected"]);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(String(refused.reason.message)).toMatch(/needs at least one admin/);
      expect(await adminCount(), `round ${round}`).toBe(1);
    }
  });

  it("a demotion and a removal at once leave one admin too", async () => {
    for (let round = 0; round < 4; round++) {
      await makeBothAdmins();
      const [a, b] = admins;
      const results = await Promise.allSettled([
        changeMemberRole(handle.db, {
          tenantId: tenantId(),
          userId: a,
          input: { role: "approver" },
          by: null,
        }),
        removeMember(handle.db, { tenantId: tenantId(), userId: b, by: null }),
      ]);
      expect(
        results.filter((r) => r.status === "fulfilled"),
        `round ${round}`,
      ).toHaveLength(1);
      expect(await adminCount(), `round ${round}`).toBe(1);
      // Put B back if the removal won.
      await handle.db
        .insert(memberships)
        .values({ tenantId: tenantId(), userId: b, role: "admin" })
        .onConflictDoNothing();
    }
  });
});

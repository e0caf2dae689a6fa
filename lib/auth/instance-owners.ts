import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { instanceOwners, users } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit } from "./audit";

/**
 * Instance owners: the people who own the machine Switchboard runs on, as opposed to the roles of
 * a workspace. Only they set the instance policy (what stdio servers may launch, what `fromEnv`
 * may read, the egress floor, who creates workspaces). The person who completes first-run setup is
 * the first; an owner may name more.
 */

/** Who makes a change, and whether they hold instance authority while making it. */
export type Authority = { by: AuditActor; instanceOwner: boolean };

/** Switchboard itself at first start (the demo servers): the machine's own configuration. */
export const SYSTEM_AUTHORITY: Authority = { by: null, instanceOwner: true };

/** How a server row records who set its launch as an owner: `operator:<id>`, `api_key:<id>` or `system`. */
export const approverOf = (authority: Authority): string =>
  authority.by ? `${authority.by.kind}:${authority.by.id}` : "system";

export type InstanceOwnerDto = { userId: string; name: string; email: string; since: string };

export async function isInstanceOwner(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: instanceOwners.userId })
    .from(instanceOwners)
    .where(eq(instanceOwners.userId, userId));
  return row !== undefined;
}

export async function listInstanceOwners(db: Queryable): Promise<InstanceOwnerDto[]> {
  const rows = await db
    .select({ userId: users.id, name: users.name, email: users.email, since: instanceOwners.createdAt })
    .from(instanceOwners)
    .innerJoin(users, eq(users.id, instanceOwners.userId))
    .orderBy(asc(instanceOwners.createdAt));
  return rows.map((r) => ({ ...r, since: r.since.toISOString() }));
}

export function assertInstanceOwner(authority: Pick<Authority, "instanceOwner">): void {
  if (!authority.instanceOwner) {
    throw new AppError(
      "forbidden",
      "Only an instance owner can do this (the person who set Switchboard up, or someone they named in Settings → Instance).",
    );
  }
}

/** Makes the first account an owner, inside first-run setup's transaction. */
export async function makeFirstOwner(db: Queryable, userId: string): Promise<void> {
  await db.insert(instanceOwners).values({ userId }).onConflictDoNothing();
}

export const addOwnerSchema = z.strictObject({
  email: z
    .email({ error: "Enter the email of a person who has a Switchboard account." })
    .trim()
    .toLowerCase(),
});

export async function addInstanceOwner(
  db: Database,
  params: { input: unknown; authority: Authority },
): Promise<InstanceOwnerDto> {
  assertInstanceOwner(params.authority);
  const { email } = parseOrThrow(addOwnerSchema, params.input, "The new owner");
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) {
    throw new AppError("not_found", `Nobody with the email ${email} has an account yet: invite them first.`, {
      fieldErrors: { email: ["No account has this email."] },
    });
  }
  const added = await db
    .insert(instanceOwners)
    .values({
      userId: user.id,
      addedBy: params.authority.by?.kind === "operator" ? params.authority.by.id : null,
    })
    .onConflictDoNothing()
    .returning({ userId: instanceOwners.userId });
  if (added.length === 0) throw new AppError("conflict", `${email} is already an instance owner.`);
  await recordAudit(db, {
    action: "instance.owner_added",
    ...auditedBy(params.authority.by),
    subject: user.id,
    detail: email,
  });
  const owner = (await listInstanceOwners(db)).find((o) => o.userId === user.id);
  if (!owner) throw new AppError("internal", "The owner could not be read back.");
  return owner;
}

/** Removes an owner; the last one stays (an instance nobody owns could never change its policy). */
export async function removeInstanceOwner(
  db: Database,
  params: { userId: string; authority: Authority },
): Promise<void> {
  assertInstanceOwner(params.authority);
  await db.transaction(async (tx) => {
    // Locked, so two owners removing each other at once cannot leave the instance with none.
    const owners = await tx.select({ userId: instanceOwners.userId }).from(instanceOwners).for("update");
    if (!owners.some((o) => o.userId === params.userId)) {
      throw new AppError("not_found", "That person is not an instance owner.");
    }
    if (owners.length <= 1) {
      throw new AppError("conflict", "The instance keeps at least one owner: name another owner first.");
    }
    await tx.delete(instanceOwners).where(eq(instanceOwners.userId, params.userId));
    await recordAudit(tx, {
      action: "instance.owner_removed",
      ...auditedBy(params.authority.by),
      subject: params.userId,
    });
  });
}

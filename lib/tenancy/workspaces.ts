import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { memberships, type Role, type Tenant, tenants } from "@/db/schema";
import { auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { parseOrThrow } from "@/lib/validation";

export type Membership = { tenant: Tenant; role: Role };

export async function listMemberships(db: Database, params: { userId: string }): Promise<Membership[]> {
  return db
    .select({ tenant: tenants, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, params.userId))
    .orderBy(asc(memberships.createdAt));
}

export async function findMembership(
  db: Database,
  params: { userId: string; tenantId: string },
): Promise<Membership | undefined> {
  const [row] = await db
    .select({ tenant: tenants, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(and(eq(memberships.userId, params.userId), eq(memberships.tenantId, params.tenantId)));
  return row;
}

export type WorkspaceDto = { id: string; name: string; slug: string; role: Role };

const toWorkspaceDto = ({ tenant, role }: Membership): WorkspaceDto => ({
  id: tenant.id,
  name: tenant.name,
  slug: tenant.slug,
  role,
});

/** Who asks (an Actor fits): a person, or an API key of one workspace. */
type WorkspaceCaller =
  | { kind: "operator"; userId: string; instanceOwner: boolean }
  | { kind: "api_key"; tenant: Tenant; role: Role | null };

/** A person's workspaces; an API key belongs to one workspace only. */
export async function listWorkspacesOf(db: Database, actor: WorkspaceCaller): Promise<WorkspaceDto[]> {
  if (actor.kind === "operator")
    return (await listMemberships(db, { userId: actor.userId })).map(toWorkspaceDto);
  return actor.role ? [toWorkspaceDto({ tenant: actor.tenant, role: actor.role })] : [];
}

/** POST /api/v1/workspaces: a person creates it (and becomes its first admin); a key has nobody to make admin. */
export async function createWorkspaceAs(
  db: Database,
  params: { actor: WorkspaceCaller; input: unknown },
): Promise<WorkspaceDto> {
  const { actor } = params;
  if (actor.kind !== "operator") {
    throw new AppError(
      "forbidden",
      "A workspace is created by a signed-in person, who becomes its first admin; an API key cannot.",
    );
  }
  const tenant = await createWorkspace(db, {
    userId: actor.userId,
    instanceOwner: actor.instanceOwner,
    input: params.input,
  });
  return toWorkspaceDto({ tenant, role: "admin" });
}

export const createWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1, { error: "Give the workspace a name." }).max(80),
});

/**
 * A new workspace with its creator as admin. Creating one makes its creator an admin — of its
 * egress policy, its servers — so by default only instance owners may (the instance policy says).
 */
export async function createWorkspace(
  db: Database,
  params: { userId: string; instanceOwner: boolean; input: unknown },
): Promise<Tenant> {
  if (!params.instanceOwner && (await getInstancePolicy(db)).workspaceCreation !== "members") {
    throw new AppError(
      "forbidden",
      "Only an instance owner can create a workspace here (Settings → Instance says who may). Ask an owner, or an admin of an existing workspace to invite you.",
    );
  }
  const { name } = parseOrThrow(createWorkspaceSchema, params.input, "The workspace");
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "workspace";
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${crypto.randomUUID().slice(0, 6)}`;
    try {
      return await db.transaction(async (tx) => {
        const [tenant] = await tx.insert(tenants).values({ slug, name }).returning();
        if (!tenant) throw new AppError("internal", "The workspace could not be created.");
        await tx.insert(memberships).values({ tenantId: tenant.id, userId: params.userId, role: "admin" });
        await recordAudit(tx, {
          tenantId: tenant.id,
          action: "workspace.created",
          ...auditedBy({ kind: "operator", id: params.userId }),
          detail: name,
        });
        return tenant;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError("conflict", "A workspace with a similar name exists; pick another name.");
}

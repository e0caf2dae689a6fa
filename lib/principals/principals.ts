import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { grants, principals, type principals as principalsTable } from "@/db/schema";
import { type ApiKeyDto, listApiKeys } from "@/lib/auth/api-keys";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database, Queryable } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";

/** Principals: the agents and MCP clients of a workspace. Admins create them; keys and grants hang off them. */

export const createPrincipalSchema = z.strictObject({
  name: z
    .string({ error: "name is required." })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
      error: "Use 1–64 letters, digits, dots, dashes and underscores (e.g. claude-code or ci.deploy).",
    }),
  description: z.string().trim().max(500).nullish(),
});

export type PrincipalDto = {
  id: string;
  name: string;
  description: string | null;
  /** tool patterns, sorted */
  grants: string[];
  /** active and revoked keys (values are never shown again) */
  keys: ApiKeyDto[];
  createdAt: string;
  updatedAt: string;
};

type PrincipalRow = typeof principalsTable.$inferSelect;
type Scope = { tenantId: string };

export async function createPrincipal(
  db: Database,
  params: Scope & { input: unknown; by: AuditActor },
): Promise<PrincipalDto> {
  const input = parseOrThrow(createPrincipalSchema, params.input, "The principal");
  let row: PrincipalRow | undefined;
  try {
    [row] = await db
      .insert(principals)
      .values({ tenantId: params.tenantId, name: input.name, description: input.description ?? null })
      .returning();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError("conflict", `A principal named "${input.name}" already exists in this workspace.`, {
      fieldErrors: { name: ["This name is already taken."] },
    });
  }
  if (!row) throw new AppError("internal", "The principal could not be created.");
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "principal.created",
    ...auditedBy(params.by),
    subject: row.id,
    detail: row.name,
  });
  return toDto(row, [], []);
}

export async function listPrincipals(db: Database, params: Scope): Promise<PrincipalDto[]> {
  const rows = await db
    .select()
    .from(principals)
    .where(eq(principals.tenantId, params.tenantId))
    .orderBy(asc(principals.name));
  const allGrants = await db
    .select({ principalId: grants.principalId, pattern: grants.toolPattern })
    .from(grants)
    .where(eq(grants.tenantId, params.tenantId))
    .orderBy(asc(grants.toolPattern));
  const keys = await listApiKeys(db, { tenantId: params.tenantId });
  return rows.map((row) =>
    toDto(
      row,
      allGrants.filter((g) => g.principalId === row.id).map((g) => g.pattern),
      keys.filter((k) => k.principalId === row.id),
    ),
  );
}

export async function getPrincipal(db: Database, params: Scope & { id: string }): Promise<PrincipalDto> {
  const row = await getPrincipalRowOrThrow(db, params);
  return toDto(
    row,
    await listGrantPatterns(db, { tenantId: params.tenantId, principalId: row.id }),
    await listApiKeys(db, { tenantId: params.tenantId, principalId: row.id }),
  );
}

/** Its keys and grants go with it (foreign keys cascade); its call history stays. */
export async function deletePrincipal(
  db: Database,
  params: Scope & { id: string; by: AuditActor },
): Promise<void> {
  const [deleted] = await db
    .delete(principals)
    .where(and(eq(principals.tenantId, params.tenantId), eq(principals.id, params.id)))
    .returning({ id: principals.id, name: principals.name });
  if (!deleted) throw principalNotFound();
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "principal.deleted",
    ...auditedBy(params.by),
    subject: deleted.id,
    detail: deleted.name,
  });
  await recordPolicyChange(db, {
    tenantId: params.tenantId,
    subject: "principal",
    subjectId: params.id,
    by: params.by,
  });
}

export async function getPrincipalRowOrThrow(
  db: Queryable,
  params: Scope & { id: string },
): Promise<PrincipalRow> {
  const [row] = await db
    .select()
    .from(principals)
    .where(and(eq(principals.tenantId, params.tenantId), eq(principals.id, params.id)));
  if (!row) throw principalNotFound();
  return row;
}

export async function listGrantPatterns(
  db: Queryable,
  params: Scope & { principalId: string },
): Promise<string[]> {
  const rows = await db
    .select({ pattern: grants.toolPattern })
    .from(grants)
    .where(and(eq(grants.tenantId, params.tenantId), eq(grants.principalId, params.principalId)))
    .orderBy(asc(grants.toolPattern));
  return rows.map((r) => r.pattern);
}

export async function touchPrincipal(db: Queryable, params: Scope & { id: string }): Promise<void> {
  await db
    .update(principals)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(principals.tenantId, params.tenantId), eq(principals.id, params.id)));
}

const principalNotFound = () =>
  new AppError("not_found", "There is no principal with that id in this workspace.");

function toDto(row: PrincipalRow, patterns: string[], keys: ApiKeyDto[]): PrincipalDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    grants: patterns,
    keys,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

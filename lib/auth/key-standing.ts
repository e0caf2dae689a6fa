import { and, eq, isNull } from "drizzle-orm";
import { type ApiKeyScope, apiKeys, instanceOwners, memberships, type Role, users } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { type AuditActor, auditedBy, recordAudit } from "./audit";

/**
 * What an API key may do now. A key is never more than the person behind it: its effective scopes
 * are its own scopes ∩ what its creator's *current* standing allows — `admin` while the creator is
 * an admin of the key's workspace, `owner` while they are an instance owner. A creator who is no
 * longer a member takes every key of theirs in that workspace down with them.
 *
 * Keys with no person behind them: the headless bootstrap key (SWITCHBOARD_BOOTSTRAP_API_KEY) is the
 * machine's — whoever sets the environment owns the instance — so it and the keys made with it are
 * bounded only by revocation. A key made by a key is its creator person's (created_by is inherited).
 *
 * A principal's key (an agent's) is not a person's rights: it is gateway-only, what any admin could
 * grant, and what it may call is the principal's grants; it keeps working whoever made it.
 * `gateway` is a principal key's scope only: /mcp and /calls accept nothing else.
 */

export type KeyFacts = {
  scopes: readonly ApiKeyScope[];
  principalId: string | null;
  /** the person the key acts for; null: the machine's (bootstrap) */
  createdBy: string | null;
  /** null when the account no longer exists */
  creatorName: string | null;
  /** the creator's role in the key's workspace now; null: not a member */
  creatorRole: Role | null;
  creatorIsOwner: boolean;
};

export type KeyStanding =
  | { kind: "active"; scopes: ApiKeyScope[] }
  | {
      kind: "inactive";
      why: "creator_removed" | "creator_role";
      /** short, for a badge and the audit log: "creator Ada was removed", "creator Ada is now a viewer" */
      reason: string;
      /** the whole refusal a caller of the key reads */
      message: string;
    };

const article = (role: Role) => (role === "admin" || role === "approver" ? `an ${role}` : `a ${role}`);

export function standingOf(key: KeyFacts): KeyStanding {
  if (key.principalId !== null) return { kind: "active", scopes: key.scopes.filter((s) => s === "gateway") };
  const workspaceScopes = key.scopes.filter((s) => s !== "gateway");
  if (key.createdBy === null) return { kind: "active", scopes: workspaceScopes };
  const who = key.creatorName ?? "a deleted account";
  if (key.creatorRole === null) {
    return {
      kind: "inactive",
      why: "creator_removed",
      reason: `creator ${who} was removed`,
      message: `This API key stopped working: its creator, ${who}, is no longer a member of this workspace, and a key never outlives its creator's rights. Ask an admin for a new key.`,
    };
  }
  const allowed = (scope: ApiKeyScope) =>
    scope === "admin" ? key.creatorRole === "admin" : scope === "owner" ? key.creatorIsOwner : false;
  const scopes = workspaceScopes.filter(allowed);
  if (scopes.length > 0) return { kind: "active", scopes };
  return {
    kind: "inactive",
    why: "creator_role",
    reason: `creator ${who} is now ${article(key.creatorRole)}`,
    message: `This API key is inactive: its creator, ${who}, is now ${article(key.creatorRole)} in this workspace, and the key's ${workspaceScopes.join(" and ")} scope needs ${workspaceScopes.includes("admin") ? "an admin" : "an instance owner"}. It works again if they get that back; or ask an admin for a new key.`,
  };
}

/** The refusal for an inactive key: removed creator → the key no longer authenticates (401). */
export function keyRefusal(standing: KeyStanding & { kind: "inactive" }): AppError {
  return new AppError(standing.why === "creator_removed" ? "unauthenticated" : "forbidden", standing.message);
}

/** The creator's standing now: name, role in the workspace, instance ownership. */
export async function loadCreator(
  db: Queryable,
  params: { tenantId: string; userId: string },
): Promise<Pick<KeyFacts, "creatorName" | "creatorRole" | "creatorIsOwner">> {
  const [row] = await db
    .select({ name: users.name, role: memberships.role, owner: instanceOwners.userId })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantId, params.tenantId)))
    .leftJoin(instanceOwners, eq(instanceOwners.userId, users.id))
    .where(eq(users.id, params.userId));
  return { creatorName: row?.name ?? null, creatorRole: row?.role ?? null, creatorIsOwner: !!row?.owner };
}

/**
 * After a creator's role changes (or they are removed: `after` null), in the same transaction:
 * records each of their keys here that this stops (`api_key.deactivated`, with why) or starts
 * again (`api_key.reactivated`), by whoever made the change. Principals' keys are not theirs.
 */
export async function recordKeyStandingChanges(
  tx: Queryable,
  params: { tenantId: string; userId: string; before: Role | null; after: Role | null; by: AuditActor },
): Promise<void> {
  const keys = await tx
    .select({ id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        eq(apiKeys.createdBy, params.userId),
        isNull(apiKeys.principalId),
        isNull(apiKeys.revokedAt),
      ),
    );
  if (keys.length === 0) return;
  const { creatorName, creatorIsOwner } = await loadCreator(tx, params);
  for (const key of keys) {
    const facts = {
      scopes: key.scopes,
      principalId: null,
      createdBy: params.userId,
      creatorName,
      creatorIsOwner,
    };
    const was = standingOf({ ...facts, creatorRole: params.before });
    const now = standingOf({ ...facts, creatorRole: params.after });
    const entry = { tenantId: params.tenantId, ...auditedBy(params.by), subject: key.id };
    if (now.kind === "inactive" && (was.kind === "active" || was.reason !== now.reason)) {
      await recordAudit(tx, { ...entry, action: "api_key.deactivated", detail: now.reason });
    } else if (now.kind === "active" && was.kind === "inactive") {
      await recordAudit(tx, {
        ...entry,
        action: "api_key.reactivated",
        detail: `creator ${creatorName ?? "a deleted account"} is ${params.after ? article(params.after) : "back"} again`,
      });
    }
  }
}

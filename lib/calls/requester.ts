import type { Role } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { roleCan } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decisionCache } from "@/lib/policy/decision-cache";
import { getPrincipalRowOrThrow } from "@/lib/principals/principals";

/**
 * Who asks for a tool call. A principal (an agent) calls through a gateway-scoped key of its own
 * and is limited to its grants. An operator calls as themselves (REST, playground): admins and
 * approvers may call any enabled tool — they could grant it to an agent anyway — while viewers,
 * who only read, may not. Either way the call goes through the same approval gate. Keys that
 * belong to no principal (admin keys, the bootstrap key) have no identity to call as.
 */
export type Requester =
  | { kind: "principal"; id: string; name: string }
  | { kind: "operator"; id: string; name: string; role: Role };

/** Which calls a caller may read: the whole workspace's, or only a principal's own. */
export type CallReader = { kind: "workspace" } | { kind: "principal"; principalId: string };

export const operatorMayCall = (role: Role) => roleCan(role, "decide");

export async function requesterFromActor(db: Database, actor: Actor): Promise<Requester> {
  if (actor.kind === "operator") {
    if (!operatorMayCall(actor.role)) {
      throw new AppError("forbidden", "Calling tools needs the approver or admin role in this workspace.");
    }
    return { kind: "operator", id: actor.userId, name: actor.name, role: actor.role };
  }
  if (actor.principalId && actor.scopes.includes("gateway")) {
    const tenantId = actor.tenant.id;
    const principalId = actor.principalId;
    // Cached per process until the principal is deleted (a policy.changed event): see decision-cache.
    const principal = await decisionCache.get(tenantId, `principal:${principalId}`, () =>
      getPrincipalRowOrThrow(db, { tenantId, id: principalId }),
    );
    return { kind: "principal", id: principal.id, name: principal.name };
  }
  throw new AppError(
    "forbidden",
    "This API key belongs to no principal, so it cannot call tools. Create a principal and use one of its keys (POST /api/v1/principals/{id}/keys).",
  );
}

export function callReaderOf(actor: Actor): CallReader {
  if (actor.kind === "operator" || actor.role !== null) return { kind: "workspace" };
  if (actor.principalId && actor.scopes.includes("gateway")) {
    return { kind: "principal", principalId: actor.principalId };
  }
  throw new AppError("forbidden", "This API key belongs to no principal and has no admin scope.");
}

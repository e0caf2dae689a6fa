import { eq } from "drizzle-orm";
import { principals, tenantPolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { listensOnLoopbackOnly } from "@/lib/http/listening";
import { describeClient } from "@/lib/http/request-client";
import { mappedPrincipalJoin } from "./loopback-mapping";

export type LoopbackPrincipal = { tenantId: string; principalId: string; principalName: string };

/**
 * Who a gateway request without a key acts as: the principal an admin mapped loopback requests
 * to, or null (the caller then gets the usual 401). Checked on every request, so turning the
 * mapping off, deleting the principal or restarting on a non-loopback address takes effect at once.
 * Only for a request provably from this machine: sockets bound to loopback only, and a loopback
 * TCP peer that forwards nothing (or a loopback client named by a trusted proxy) — lib/http/request-client.
 */
export async function resolveLoopbackPrincipal(
  db: Queryable,
  headers: Headers,
): Promise<LoopbackPrincipal | null> {
  if (!listensOnLoopbackOnly() || !describeClient(headers).isLocal) return null;
  const rows = await db
    .select({ tenantId: tenantPolicies.tenantId, principalId: principals.id, principalName: principals.name })
    .from(tenantPolicies)
    .innerJoin(principals, mappedPrincipalJoin)
    .where(eq(tenantPolicies.kind, "gateway"))
    .limit(2);
  // Saves are serialised so one workspace at most holds it; if two ever did, picking one would
  // hand a request to a workspace nobody chose — so neither applies.
  return rows.length === 1 ? (rows[0] ?? null) : null;
}

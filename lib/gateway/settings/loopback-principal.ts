import { eq } from "drizzle-orm";
import { principals, tenantPolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { classifyAddress } from "@/lib/policy/egress";
import { mappedPrincipalJoin } from "./loopback-mapping";

export type LoopbackPrincipal = { tenantId: string; principalId: string; principalName: string };

/**
 * Who a gateway request without a key acts as: the principal an admin mapped loopback requests
 * to, or null (the caller then gets the usual 401). Checked on every request, so turning the
 * mapping off, deleting the principal or restarting on a non-loopback HOST takes effect at once.
 */
export async function resolveLoopbackPrincipal(
  db: Queryable,
  headers: Headers,
): Promise<LoopbackPrincipal | null> {
  if (!readEnv().listensOnLoopbackOnly || isForwardedFromElsewhere(headers)) return null;
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

/**
 * Listening on loopback only, a request can still come from far away through a reverse proxy on
 * this machine. Such proxies (and `next start` itself, from the socket) name the client in
 * X-Forwarded-For: any hop that is not loopback means the request is not local. A local process
 * could forge the header, but only to lose the mapping, never to gain it.
 */
function isForwardedFromElsewhere(headers: Headers): boolean {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded === null) return false;
  return forwarded
    .split(",")
    .map((hop) => hop.trim())
    .some((hop) => hop === "" || classifyAddress(hop) !== "loopback");
}

import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { principals, tenantPolicies } from "@/db/schema";
import { type Actor, actorId } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/auth/audit";
import { readGatewayNameBudget } from "@/lib/catalog/gateway-name-budget";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { listeningAddresses, listensOnLoopbackOnly } from "@/lib/http/listening";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { getPrincipalRowOrThrow } from "@/lib/principals/principals";
import { parseOrThrow } from "@/lib/validation";
import { mergeGatewayPolicy } from "./gateway-policy-row";
import { HELD_ELSEWHERE } from "./messages";

/**
 * The workspace's gateway settings (tenant_policies kind "gateway"): which principal, if any,
 * unauthenticated gateway requests from loopback act as. Off by default. A request without a key
 * names no workspace, so at most one workspace of an installation may hold the mapping.
 *
 * "From loopback" is decided by the sockets, never by HOST or a header: the server must be bound to
 * loopback addresses only (lib/http/listening), and each request must come from a loopback peer
 * forwarding nothing (lib/http/request-client). Listening anywhere else, or started without
 * server.mjs (which alone sees the sockets), the mapping is refused on save and ignored per request.
 */

export const gatewaySettingsSchema = z.strictObject({
  loopbackPrincipalId: z
    .string({ error: "Send a principal's id, or null to turn the mapping off." })
    .trim()
    .min(1, { error: "Send a principal's id, or null to turn the mapping off." })
    .max(200)
    .nullable()
    .default(null),
});
export type GatewaySettingsInput = z.infer<typeof gatewaySettingsSchema>;

export type GatewaySettings = {
  /** The principal unauthenticated loopback requests act as; null when off (or that principal was deleted). */
  loopbackPrincipal: { id: string; name: string } | null;
  /** Whether this installation listens on loopback only, the one case the mapping can apply. */
  canMapLoopback: boolean;
  /** Why the mapping cannot apply here, for a person; null when it can. */
  loopbackUnavailableReason: string | null;
  /** Another workspace of this installation holds the mapping (turn it off there first). */
  isLoopbackHeldElsewhere: boolean;
  /** The longest gateway name this workspace hands out (name-budget.ts). */
  gatewayNameBudget: number;
};

const NOT_LOOPBACK_REASON = (addresses: readonly string[]) =>
  `Switchboard listens on ${addresses.join(", ")}, which other machines can reach, ` +
  "so a request without a key may come from anywhere: it is never mapped to a principal. " +
  "Start Switchboard with HOST=127.0.0.1 (npm run serve) to use the loopback mapping.";

const SOCKETS_UNKNOWN_REASON =
  "Switchboard was not started by its own server (npm run serve, server.mjs), the only one that sees " +
  "which machine a request comes from, so a request without a key is never mapped to a principal. " +
  "Start it with npm run serve and HOST=127.0.0.1 to use the loopback mapping.";

/** Serialises saves across workspaces, so two admins cannot both take the mapping at once. */
const LOOPBACK_MAPPING_LOCK_ID = 727_275;

export function loopbackUnavailableReason(): string | null {
  if (listensOnLoopbackOnly()) return null;
  const addresses = listeningAddresses();
  return addresses === null ? SOCKETS_UNKNOWN_REASON : NOT_LOOPBACK_REASON(addresses);
}

export async function getGatewaySettings(
  db: Queryable,
  params: { tenantId: string },
): Promise<GatewaySettings> {
  const reason = loopbackUnavailableReason();
  const [loopbackPrincipal, isLoopbackHeldElsewhere, gatewayNameBudget] = await Promise.all([
    findMappedPrincipal(db, params),
    isHeldByAnotherWorkspace(db, params),
    readGatewayNameBudget(db, params),
  ]);
  return {
    loopbackPrincipal,
    canMapLoopback: reason === null,
    loopbackUnavailableReason: reason,
    isLoopbackHeldElsewhere,
    gatewayNameBudget,
  };
}

/**
 * PUT semantics: a field left out takes its default (off). Turning the mapping off is always allowed.
 * The name budget stored beside it has a PUT of its own (name-budget.ts) and is kept here.
 */
export async function putGatewaySettings(
  db: Database,
  params: { tenantId: string; input: unknown; actor: Actor },
): Promise<GatewaySettings> {
  const { tenantId } = params;
  const settings = parseOrThrow(gatewaySettingsSchema, params.input, "The gateway settings");
  const wanted = settings.loopbackPrincipalId;
  const reason = loopbackUnavailableReason();
  if (wanted !== null && reason !== null) {
    throw new AppError("policy_denied", reason, { fieldErrors: { loopbackPrincipalId: [reason] } });
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOOPBACK_MAPPING_LOCK_ID})`);
    const before = await findMappedPrincipal(tx, { tenantId });
    const principal = wanted === null ? null : await getPrincipalOrThrow(tx, { tenantId, id: wanted });
    if (principal && (await isHeldByAnotherWorkspace(tx, { tenantId }))) {
      throw new AppError("conflict", HELD_ELSEWHERE, {
        fieldErrors: { loopbackPrincipalId: [HELD_ELSEWHERE] },
      });
    }
    const policy: GatewaySettingsInput = { loopbackPrincipalId: principal?.id ?? null };
    await mergeGatewayPolicy(tx, { tenantId, fields: policy });
    if (before?.id === principal?.id) return;
    await recordPolicyChange(tx, { tenantId, subject: "gateway" });
    await recordAudit(tx, {
      tenantId,
      action: "gateway.loopback_mapping_changed",
      actorKind: params.actor.kind,
      actorId: actorId(params.actor),
      subject: principal?.id ?? before?.id ?? null,
      detail: principal
        ? `requests without a key from loopback act as ${principal.name}`
        : `off${before ? ` (was ${before.name})` : ""}`,
    });
  });
  return getGatewaySettings(db, { tenantId });
}

/** The mapped principal, if it still exists: deleting a principal turns its mapping off. */
async function findMappedPrincipal(
  db: Queryable,
  params: { tenantId: string },
): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: principals.id, name: principals.name })
    .from(tenantPolicies)
    .innerJoin(principals, mappedPrincipalJoin)
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "gateway")));
  return row ?? null;
}

async function isHeldByAnotherWorkspace(db: Queryable, params: { tenantId: string }): Promise<boolean> {
  const rows = await db
    .select({ tenantId: tenantPolicies.tenantId })
    .from(tenantPolicies)
    .innerJoin(principals, mappedPrincipalJoin)
    .where(and(eq(tenantPolicies.kind, "gateway"), ne(tenantPolicies.tenantId, params.tenantId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * A gateway row joined to the principal it names, in its own workspace. A stored id whose
 * principal was deleted joins nothing, so it counts as off everywhere — here, in Settings and at
 * request time — without the principal's deletion having to know about this setting.
 */
export const mappedPrincipalJoin = and(
  eq(principals.tenantId, tenantPolicies.tenantId),
  eq(principals.id, sql`${tenantPolicies.policy}->>'loopbackPrincipalId'`),
);

/** The principal to map, or a 400 on the field naming it (a missing principal is bad input here). */
async function getPrincipalOrThrow(db: Queryable, params: { tenantId: string; id: string }) {
  try {
    return await getPrincipalRowOrThrow(db, params);
  } catch (error) {
    if (!isAppError(error) || error.code !== "not_found") throw error;
    const message = "There is no principal with that id in this workspace.";
    throw new AppError("validation", message, { fieldErrors: { loopbackPrincipalId: [message] } });
  }
}

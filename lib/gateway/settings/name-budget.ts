import { z } from "zod";
import { type Actor, actorId } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/auth/audit";
import { applyGatewayNamesIn } from "@/lib/catalog/apply-gateway-names";
import { gatewayNameBudgetSchema, readGatewayNameBudget } from "@/lib/catalog/gateway-name-budget";
import type { Database } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import { mergeGatewayPolicy } from "./gateway-policy-row";
import { type GatewaySettings, getGatewaySettings } from "./loopback-mapping";

/**
 * Settings → Gateway, the name budget: the longest gateway name the workspace hands out. Its own
 * resource (PUT /api/v1/settings/gateway/name-budget) rather than a field of the mapping's PUT, so
 * changing it never re-submits — and never re-validates — the loopback mapping beside it.
 * Saved, applied (every tool renamed as needed, grants and allow rules following) and audited in
 * one transaction: a budget is never stored without the names that go with it.
 */

export const gatewayNameBudgetInputSchema = z.strictObject({ gatewayNameBudget: gatewayNameBudgetSchema });

export async function putGatewayNameBudget(
  db: Database,
  params: { tenantId: string; input: unknown; actor: Actor },
): Promise<GatewaySettings> {
  const { tenantId } = params;
  const { gatewayNameBudget } = parseOrThrow(
    gatewayNameBudgetInputSchema,
    params.input,
    "The gateway name budget",
  );
  await db.transaction(async (tx) => {
    const before = await readGatewayNameBudget(tx, { tenantId });
    await mergeGatewayPolicy(tx, { tenantId, fields: { gatewayNameBudget } });
    if (before === gatewayNameBudget) return;
    const renames = await applyGatewayNamesIn(tx, { tenantId, budget: gatewayNameBudget });
    await recordAudit(tx, {
      tenantId,
      action: "gateway.name_budget_changed",
      actorKind: params.actor.kind,
      actorId: actorId(params.actor),
      subject: null,
      detail: `${before} → ${gatewayNameBudget} characters; ${renames.length} ${renames.length === 1 ? "tool" : "tools"} renamed`,
    });
  });
  return getGatewaySettings(db, { tenantId });
}

import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import { type GovernedToolDto, updateTool, updateToolSchema } from "@/lib/catalog/governed-tools";
import type { Database } from "@/lib/db/client";
import { changingAs } from "./policy-events";

/**
 * An admin's decision about a tool (effect, enabled, approval rule), with who made it: in the audit
 * log, and on the `policy.changed` event updateTool records (lib/catalog owns the tool row, so the
 * "who" reaches its event through `changingAs`).
 */
export async function changeTool(
  db: Database,
  params: { tenantId: string; id: string; input: unknown; by: AuditActor },
): Promise<GovernedToolDto> {
  const tool = await changingAs(params.by, () => updateTool(db, params));
  // updateTool validated the input already: this only reads which fields it set.
  const patch = updateToolSchema.parse(params.input);
  const changes = [
    patch.effect !== undefined ? `effect ${patch.effect ?? "unclassified"}` : null,
    patch.approvalRule !== undefined ? `approval ${patch.approvalRule}` : null,
    patch.enabled !== undefined ? (patch.enabled ? "enabled" : "disabled") : null,
  ].filter((change) => change !== null);
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "tool.policy_changed",
    ...auditedBy(params.by),
    subject: tool.id,
    detail: `${tool.gatewayName}: ${changes.join(", ") || "no change"}`,
  });
  return tool;
}

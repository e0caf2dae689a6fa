import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import {
  type GovernedToolDto,
  getGovernedTool,
  type ToolPatch,
  updateTool,
  updateToolSchema,
} from "@/lib/catalog/governed-tools";
import { updateTools } from "@/lib/catalog/update-tools";
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
  const before = await getGovernedTool(db, params);
  const tool = await changingAs(params.by, () =>
    updateTool(db, { ...params, byName: params.by?.name ?? null }),
  );
  // updateTool validated the input already: this only reads which fields it set.
  const patch = updateToolSchema.parse(params.input);
  await auditToolChange(db, { tenantId: params.tenantId, by: params.by, before, after: tool, patch });
  return tool;
}

/**
 * Several tools at once, all or nothing: one transaction, each tool written, audited and evented
 * exactly as a single change (its `policy.changed` events are published once the commit is done).
 */
export async function changeTools(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<GovernedToolDto[]> {
  return db.transaction(async (tx) => {
    const changes = await changingAs(params.by, () =>
      updateTools(tx, { tenantId: params.tenantId, input: params.input, byName: params.by?.name ?? null }),
    );
    for (const change of changes)
      await auditToolChange(tx, { tenantId: params.tenantId, by: params.by, ...change });
    return changes.map((change) => change.after);
  });
}

async function auditToolChange(
  db: Database,
  params: {
    tenantId: string;
    by: AuditActor;
    before: GovernedToolDto;
    after: GovernedToolDto;
    patch: ToolPatch;
  },
): Promise<void> {
  const { patch, after: tool } = params;
  await auditQuarantine(db, params);
  const changes = [
    patch.effect !== undefined ? `effect ${patch.effect ?? "unclassified"}` : null,
    patch.approvalRule !== undefined ? `approval ${patch.approvalRule}` : null,
    patch.enabled !== undefined ? (patch.enabled ? "enabled" : "disabled") : null,
    patch.quarantined !== undefined ? (patch.quarantined ? "quarantined" : "quarantine cleared") : null,
  ].filter((change) => change !== null);
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "tool.policy_changed",
    ...auditedBy(params.by),
    subject: tool.id,
    detail: `${tool.gatewayName}: ${changes.join(", ") || "no change"}`,
  });
}

/** Quarantining a tool, and above all clearing it (the review), each get their own audit entry. */
async function auditQuarantine(
  db: Database,
  params: { tenantId: string; by: AuditActor; before: GovernedToolDto; after: GovernedToolDto },
): Promise<void> {
  const { before, after } = params;
  if (Boolean(before.quarantine) === Boolean(after.quarantine)) return;
  const reason = after.quarantine?.reason ? ` (${after.quarantine.reason})` : "";
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: after.quarantine ? "tool.quarantined" : "tool.quarantine_cleared",
    ...auditedBy(params.by),
    subject: after.id,
    detail: after.quarantine
      ? `${after.gatewayName}: refused until reviewed${reason}`
      : `${after.gatewayName}: reviewed, calls allowed again (quarantined since ${before.quarantine?.at}${before.quarantine?.by ? ` by ${before.quarantine.by}` : ""})`,
  });
}

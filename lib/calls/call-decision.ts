import { and, eq, isNull } from "drizzle-orm";
import { mcpServers, tools } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { type ApprovalRule, decideApprovalGate } from "@/lib/policy/approval-gate";
import type { ApprovalPolicy } from "@/lib/policy/approval-rules";
import { decisionCache } from "@/lib/policy/decision-cache";
import { type EffectClass, effectiveEffect } from "@/lib/policy/effects";
import { coversServerCatalog, findGrant, wholeServerPattern } from "@/lib/policy/grant-patterns";
import { listGrantPatterns } from "@/lib/principals/principals";
import { operatorMayCall, type Requester } from "./requester";

/** The decisions on a call before it runs, each a value: who may call, which tool, approval or not. */

export type Decision =
  | { kind: "allow" }
  /** `code` names a refusal that is not the policy's: over a limit (lib/limits), recorded as its own outcome */
  | { kind: "deny"; reason: string; code?: "rate_limited" }
  | { kind: "needs_approval"; reason: string };

export type CallTarget = {
  toolId: string;
  serverId: string;
  serverName: string;
  serverEnabled: boolean;
  toolName: string;
  gatewayName: string;
  toolEnabled: boolean;
  effect: EffectClass;
  isClassified: boolean;
  approvalRule: ApprovalRule;
  callTimeoutMs: number;
  /** set by an admin: every call is refused until the tool is reviewed */
  quarantine: { at: Date; reason: string | null } | null;
};

const allow: Decision = { kind: "allow" };

/** Grants are never taken from the caller. Operators are not bound by grants. */
export function loadGrants(
  db: Database,
  params: { tenantId: string; requester: Requester },
): Promise<string[]> {
  const { tenantId, requester } = params;
  return requester.kind === "principal"
    ? principalGrants(db, { tenantId, principalId: requester.id })
    : Promise.resolve([]);
}

/** A principal's grant patterns, read once per process until a change event drops them (decision-cache). */
export function principalGrants(
  db: Database,
  params: { tenantId: string; principalId: string },
): Promise<string[]> {
  return decisionCache.get(params.tenantId, `grants:${params.principalId}`, () =>
    listGrantPatterns(db, params),
  );
}

export function authorizeRequester(
  requester: Requester,
  grants: readonly string[],
  gatewayName: string,
): Decision {
  switch (requester.kind) {
    case "principal":
      return findGrant(grants, gatewayName)
        ? allow
        : { kind: "deny", reason: `The principal "${requester.name}" has no grant for ${gatewayName}.` };
    case "operator":
      return operatorMayCall(requester.role)
        ? allow
        : { kind: "deny", reason: "Viewers may not call tools; ask for the approver or admin role." };
  }
}

/**
 * Reading a server's resources or getting its prompts (lib/calls/execute-catalog-read.ts) needs a
 * grant of the whole server, `<server>__*` or `*` (see coversServerCatalog); operators as for tools.
 */
export function authorizeCatalogRead(
  requester: Requester,
  grants: readonly string[],
  serverName: string,
): Decision {
  switch (requester.kind) {
    case "principal":
      return coversServerCatalog(grants, serverName)
        ? allow
        : { kind: "deny", reason: missingCatalogGrant(requester.name, serverName) };
    case "operator":
      return operatorMayCall(requester.role)
        ? allow
        : { kind: "deny", reason: "Viewers may not read resources; ask for the approver or admin role." };
  }
}

/** Why a principal may not read a server's resources or prompts: the grant it lacks, by name. */
export function missingCatalogGrant(principalName: string, serverName: string): string {
  const pattern = wholeServerPattern(serverName);
  return (
    `The principal "${principalName}" has no grant for the resources and prompts of ${serverName}: ` +
    `they need the grant ${pattern} (or *); grants of single tools do not cover them.`
  );
}

/** The live tool behind a gateway name; two live tools under one name are a conflict, never a guess. */
export async function findCallTarget(
  db: Database,
  params: { tenantId: string; gatewayName: string },
): Promise<CallTarget | undefined> {
  const rows = await db
    .select({
      tool: tools,
      serverName: mcpServers.name,
      serverEnabled: mcpServers.enabled,
      callTimeoutMs: mcpServers.callTimeoutMs,
    })
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(
        eq(tools.tenantId, params.tenantId),
        eq(tools.gatewayName, params.gatewayName),
        isNull(tools.removedAt),
      ),
    );
  if (rows.length > 1) {
    const servers = rows.map((r) => r.serverName).join(", ");
    throw new AppError(
      "conflict",
      `${params.gatewayName} names tools of several servers (${servers}); rename one server.`,
    );
  }
  const [row] = rows;
  if (!row) return undefined;
  return {
    toolId: row.tool.id,
    serverId: row.tool.serverId,
    serverName: row.serverName,
    serverEnabled: row.serverEnabled,
    toolName: row.tool.name,
    gatewayName: row.tool.gatewayName,
    toolEnabled: row.tool.enabled,
    effect: effectiveEffect(row.tool),
    isClassified: row.tool.effect !== null,
    approvalRule: row.tool.approvalRule,
    callTimeoutMs: row.callTimeoutMs,
    quarantine: row.tool.quarantinedAt
      ? { at: row.tool.quarantinedAt, reason: row.tool.quarantineReason }
      : null,
  };
}

/**
 * A quarantined tool is refused outright (403), before anything is recorded or sent to its server:
 * an admin set it aside, usually after it crashed its server, until someone reviews it.
 */
export function refuseQuarantined(target: Pick<CallTarget, "gatewayName" | "quarantine">): void {
  if (!target.quarantine) return;
  throw new AppError("policy_denied", describeQuarantine(target.gatewayName, target.quarantine));
}

export function describeQuarantine(
  gatewayName: string,
  quarantine: { at: Date; reason: string | null },
): string {
  const why = quarantine.reason ? ` (${quarantine.reason})` : "";
  return (
    `${gatewayName} is quarantined: an admin set it to be refused until reviewed, since ` +
    `${quarantine.at.toISOString()}${why}. A workspace admin can review the tool and clear the quarantine.`
  );
}

export function checkTargetUsable(target: CallTarget): Decision {
  if (!target.toolEnabled) return { kind: "deny", reason: `${target.gatewayName} is disabled by an admin.` };
  if (!target.serverEnabled)
    return { kind: "deny", reason: `The server "${target.serverName}" is disabled.` };
  return allow;
}

export function gateCall(target: CallTarget, policy: ApprovalPolicy): Decision {
  return decideApprovalGate({
    effect: target.effect,
    isClassified: target.isClassified,
    rule: target.approvalRule,
    policy,
  });
}

/** The first decision that is not "allow", in order; "allow" when all allow. */
export function firstRefusal(...decisions: Array<() => Decision>): Decision {
  for (const decide of decisions) {
    const decision = decide();
    if (decision.kind !== "allow") return decision;
  }
  return allow;
}

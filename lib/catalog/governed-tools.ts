import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { effectClasses, mcpServers, serverStatus, tools } from "@/db/schema";
import { listAllTools, type ToolDto } from "@/lib/catalog/read-catalog";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { approvalRules } from "@/lib/policy/approval-gate";
import {
  type EffectClass,
  effectiveEffect,
  readHints,
  suggestEffect,
  type ToolHints,
} from "@/lib/policy/effects";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";

/** The tool catalog across servers as admins govern it: enforced effect beside the server's hints. */

export type GovernedToolDto = ToolDto & {
  /** what is enforced: the admin's class, or external-write while unclassified */
  enforcedEffect: EffectClass;
  isClassified: boolean;
  /** the server's own annotations: untrusted, shown for the admin's review */
  hints: ToolHints;
  /** what the hints would suggest; never enforced */
  suggestedEffect: EffectClass;
  serverEnabled: boolean;
  /** connection state of the server ("unknown" before the pool reported one) */
  serverStatus: string;
};

export const updateToolSchema = z.strictObject({
  effect: z
    .enum(effectClasses, { error: "effect is read, write, external-write, destructive or null." })
    .nullable()
    .optional(),
  enabled: z.boolean().optional(),
  approvalRule: z.enum(approvalRules, { error: "approvalRule is by-effect, always or never." }).optional(),
});

type Scope = { tenantId: string };

export async function listGovernedTools(
  db: Database,
  params: Scope & { q?: string },
): Promise<GovernedToolDto[]> {
  const [all, servers] = await Promise.all([listAllTools(db, params), listServerStates(db, params)]);
  const q = params.q?.trim().toLowerCase();
  const matches = (tool: ToolDto) =>
    !q ||
    [tool.gatewayName, tool.name, tool.serverName, tool.title ?? "", tool.description ?? ""].some((text) =>
      text.toLowerCase().includes(q),
    );
  return all.filter(matches).map((tool) => govern(tool, servers.get(tool.serverId)));
}

export async function getGovernedTool(
  db: Database,
  params: Scope & { id: string },
): Promise<GovernedToolDto> {
  const tool = (await listAllTools(db, { tenantId: params.tenantId, includeRemoved: true })).find(
    (t) => t.id === params.id,
  );
  if (!tool) throw new AppError("not_found", "There is no tool with that id in this workspace.");
  const servers = await listServerStates(db, params);
  return govern(tool, servers.get(tool.serverId));
}

/**
 * PATCH a tool: effect (null = back to unclassified), enabled, approval rule. "never" needs a
 * classified tool: skipping approval is a decision about a reviewed definition.
 */
export async function updateTool(
  db: Database,
  params: Scope & { id: string; input: unknown },
): Promise<GovernedToolDto> {
  const patch = parseOrThrow(updateToolSchema, params.input, "The tool update");
  const current = await getGovernedTool(db, params);
  const effect = patch.effect === undefined ? current.effect : patch.effect;
  const rule = patch.approvalRule ?? current.approvalRule;
  if (rule === "never" && effect === null) {
    throw new AppError(
      "validation",
      "Classify the tool (set its effect) before exempting it from approval.",
      {
        fieldErrors: { approvalRule: ['"never" needs a classified tool: set effect too.'] },
      },
    );
  }
  await db
    .update(tools)
    .set({
      ...(patch.effect !== undefined ? { effect: patch.effect } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.approvalRule !== undefined ? { approvalRule: patch.approvalRule } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(tools.tenantId, params.tenantId), eq(tools.id, params.id)));
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "tool", subjectId: params.id });
  return getGovernedTool(db, params);
}

type ServerState = { enabled: boolean; state: string | null };

async function listServerStates(db: Database, params: Scope): Promise<Map<string, ServerState>> {
  const rows = await db
    .select({ id: mcpServers.id, enabled: mcpServers.enabled, state: serverStatus.state })
    .from(mcpServers)
    .leftJoin(serverStatus, eq(serverStatus.serverId, mcpServers.id))
    .where(eq(mcpServers.tenantId, params.tenantId));
  return new Map(rows.map((r) => [r.id, { enabled: r.enabled, state: r.state }]));
}

function govern(tool: ToolDto, server: ServerState | undefined): GovernedToolDto {
  const hints = readHints(tool.definition);
  return {
    ...tool,
    enforcedEffect: effectiveEffect(tool),
    isClassified: tool.effect !== null,
    hints,
    suggestedEffect: suggestEffect(hints),
    serverEnabled: server?.enabled ?? false,
    serverStatus: server?.enabled === false ? "disabled" : (server?.state ?? "unknown"),
  };
}

import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { effectClasses, mcpServers, serverStatus, tools } from "@/db/schema";
import { countToolsWhere, listAllTools, listToolsWhere, type ToolDto } from "@/lib/catalog/read-catalog";
import {
  afterCursor,
  encodeToolCursor,
  listToolsQuerySchema,
  type ToolFilters,
  toolFilterCondition,
} from "@/lib/catalog/tool-query";
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
import { countRecentCrashes, crashKey, QUARANTINE_SUGGESTION_CRASHES } from "@/lib/servers/crash-attribution";
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
  /** calls of it during which its server's process exited, in the last 24 hours */
  recentCrashes: number;
  /** crashed its server repeatedly and is not quarantined: suggested, never done automatically */
  isQuarantineSuggested: boolean;
};

export const updateToolSchema = z.strictObject({
  effect: z
    .enum(effectClasses, { error: "effect is read, write, external-write, destructive or null." })
    .nullable()
    .optional(),
  enabled: z.boolean().optional(),
  approvalRule: z.enum(approvalRules, { error: "approvalRule is by-effect, always or never." }).optional(),
  /** true: refuse every call until reviewed; false: reviewed, calls allowed again (audited). */
  quarantined: z.boolean({ error: "quarantined is true or false." }).optional(),
  quarantineReason: z
    .string({ error: "quarantineReason is text." })
    .trim()
    .max(500, { error: "quarantineReason is at most 500 characters." })
    .optional(),
});

type Scope = { tenantId: string };

/**
 * Every live tool of the workspace, governed: the MCP gateway's list (lib/gateway/server/tools),
 * cached there. Lists for people page through listGovernedToolsPage instead.
 */
export async function listGovernedTools(db: Database, params: Scope): Promise<GovernedToolDto[]> {
  const [all, servers, crashes] = await Promise.all([
    listAllTools(db, params),
    listServerStates(db, params),
    countRecentCrashes(db, params),
  ]);
  return all.map((tool) => govern(tool, servers.get(tool.serverId), crashes));
}

/**
 * The live tools of `serverIds` (every server when not given), governed, by server id. Name
 * conflicts are among the tools read: a part of the catalog needs `withConflicts` over the whole.
 */
export async function listGovernedToolsByServer(
  db: Database,
  params: Scope & { serverIds?: readonly string[] },
): Promise<Map<string, GovernedToolDto[]>> {
  const [all, servers, crashes] = await Promise.all([
    listAllTools(db, params),
    listServerStates(db, params),
    countRecentCrashes(db, params),
  ]);
  const byServer = new Map<string, GovernedToolDto[]>();
  for (const tool of all) {
    const governed = govern(tool, servers.get(tool.serverId), crashes);
    const part = byServer.get(tool.serverId);
    if (part) part.push(governed);
    else byServer.set(tool.serverId, [governed]);
  }
  return byServer;
}

export type GovernedToolPage = {
  tools: GovernedToolDto[];
  /** pass as `cursor` for the next page; null after the last */
  nextCursor: string | null;
  /** tools matching the filters, on every page */
  total: number;
};

/** How many live tools match `filters` (e.g. the unclassified ones, for a summary). */
export function countMatchingTools(db: Database, params: Scope & { filters: ToolFilters }): Promise<number> {
  return countToolsWhere(db, toolFilterCondition(params.tenantId, params.filters));
}

/**
 * GET /api/v1/tools: one page of the tools matching the query (validated here: a bad limit,
 * effect or cursor is a 400). Server state and recent crashes are read for the page's tools only.
 */
export async function listGovernedToolsPage(
  db: Database,
  params: Scope & { query: unknown },
): Promise<GovernedToolPage> {
  const query = parseOrThrow(listToolsQuerySchema, params.query, "The query");
  const matching = toolFilterCondition(params.tenantId, query);
  const rows = await listToolsWhere(db, {
    tenantId: params.tenantId,
    where: and(matching, query.cursor ? afterCursor(query.cursor) : undefined),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const serverIds = [...new Set(page.map((tool) => tool.serverId))];
  const [total, servers, crashes] = await Promise.all([
    // A first page that holds every match has counted them already (a narrow search, usually).
    !query.cursor && rows.length <= query.limit ? rows.length : countToolsWhere(db, matching),
    listServerStates(db, { ...params, serverIds }),
    countRecentCrashes(db, { ...params, serverIds }),
  ]);
  const last = page.at(-1);
  return {
    tools: page.map((tool) => govern(tool, servers.get(tool.serverId), crashes)),
    nextCursor: rows.length > query.limit && last ? encodeToolCursor(last) : null,
    total,
  };
}

export async function getGovernedTool(
  db: Database,
  params: Scope & { id: string },
): Promise<GovernedToolDto> {
  const [tool] = await getGovernedTools(db, {
    tenantId: params.tenantId,
    ids: [params.id],
    notFound: () => "There is no tool with that id in this workspace.",
  });
  if (!tool) throw new AppError("not_found", "There is no tool with that id in this workspace.");
  return tool;
}

/**
 * Several tools by id (removed ones too), in the order given, reading only those tools. An id of
 * another workspace is refused exactly like one that never existed: nothing says it exists elsewhere.
 */
export async function getGovernedTools(
  db: Database,
  params: Scope & { ids: readonly string[]; notFound: (id: string, index: number) => string },
): Promise<GovernedToolDto[]> {
  const ids = [...new Set(params.ids)];
  if (ids.length === 0) return [];
  const found = await listToolsWhere(db, {
    tenantId: params.tenantId,
    where: and(eq(tools.tenantId, params.tenantId), inArray(tools.id, ids)),
    limit: ids.length,
  });
  const serverIds = [...new Set(found.map((tool) => tool.serverId))];
  const [servers, crashes] = await Promise.all([
    listServerStates(db, { ...params, serverIds }),
    countRecentCrashes(db, { ...params, serverIds }),
  ]);
  const byId = new Map(found.map((tool) => [tool.id, tool]));
  return params.ids.map((id, index) => {
    const tool = byId.get(id);
    if (!tool) throw new AppError("not_found", params.notFound(id, index));
    return govern(tool, servers.get(tool.serverId), crashes);
  });
}

/**
 * PATCH a tool: effect (null = back to unclassified), enabled, approval rule. "never" needs a
 * classified tool: skipping approval is a decision about a reviewed definition.
 */
export async function updateTool(
  db: Database,
  params: Scope & { id: string; input: unknown; byName?: string | null },
): Promise<GovernedToolDto> {
  const patch = parseOrThrow(updateToolSchema, params.input, "The tool update");
  const current = await getGovernedTool(db, params);
  await applyToolPatch(db, { tenantId: params.tenantId, current, patch, byName: params.byName ?? null });
  return getGovernedTool(db, params);
}

export type ToolPatch = z.infer<typeof updateToolSchema>;

/**
 * Writes one validated patch and records its `policy.changed`: the one write path of a single and
 * of a bulk update (lib/catalog/update-tools), so both refuse the same things the same way.
 */
export async function applyToolPatch(
  db: Database,
  params: Scope & { current: GovernedToolDto; patch: ToolPatch; byName: string | null },
): Promise<void> {
  const { current, patch } = params;
  assertExemptionClassified(current, patch);
  await db
    .update(tools)
    .set({
      ...(patch.effect !== undefined ? { effect: patch.effect } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.approvalRule !== undefined ? { approvalRule: patch.approvalRule } : {}),
      ...quarantineChange(patch, current, params.byName),
      updatedAt: sql`now()`,
    })
    .where(and(eq(tools.tenantId, params.tenantId), eq(tools.id, current.id)));
  await recordPolicyChange(db, {
    tenantId: params.tenantId,
    subject: "tool",
    subjectId: current.id,
    serverId: current.serverId,
  });
}

/**
 * "never" on an unclassified tool would do nothing (the gate goes by the external-write effect until
 * someone classifies it), so setting that pair is refused rather than silently ignored. Only a
 * patch that sets one of the two is judged: a tool whose effect discovery reset after a definition
 * change keeps its "never" (dormant, shown as such) and other fields still change.
 */
function assertExemptionClassified(current: GovernedToolDto, patch: ToolPatch): void {
  if (patch.effect === undefined && patch.approvalRule === undefined) return;
  const effect = patch.effect === undefined ? current.effect : patch.effect;
  const rule = patch.approvalRule ?? current.approvalRule;
  if (rule !== "never" || effect !== null) return;
  throw new AppError(
    "validation",
    `Classify ${current.gatewayName} (set its effect) before exempting it from approval: "never" on an unclassified tool would have no effect, since it is enforced as external-write until classified.`,
    {
      fieldErrors: { approvalRule: ['"never" needs a classified tool: set effect too.'] },
    },
  );
}

/** Setting keeps the first time (and who) until cleared; a new reason may be given while set. */
function quarantineChange(
  patch: ToolPatch,
  current: GovernedToolDto,
  byName: string | null,
): Partial<typeof tools.$inferInsert> {
  if (patch.quarantined === false)
    return { quarantinedAt: null, quarantinedBy: null, quarantineReason: null };
  const reason = patch.quarantineReason ? { quarantineReason: patch.quarantineReason } : {};
  if (patch.quarantined === true && !current.quarantine)
    return { quarantinedAt: new Date(), quarantinedBy: byName, quarantineReason: null, ...reason };
  return current.quarantine ? reason : {};
}

type ServerState = { enabled: boolean; state: string | null };

/** Every server of the workspace, or only `serverIds` (none read for an empty list). */
async function listServerStates(
  db: Database,
  params: Scope & { serverIds?: readonly string[] },
): Promise<Map<string, ServerState>> {
  if (params.serverIds?.length === 0) return new Map();
  const rows = await db
    .select({ id: mcpServers.id, enabled: mcpServers.enabled, state: serverStatus.state })
    .from(mcpServers)
    .leftJoin(serverStatus, eq(serverStatus.serverId, mcpServers.id))
    .where(
      and(
        eq(mcpServers.tenantId, params.tenantId),
        params.serverIds ? inArray(mcpServers.id, [...params.serverIds]) : undefined,
      ),
    );
  return new Map(rows.map((r) => [r.id, { enabled: r.enabled, state: r.state }]));
}

function govern(
  tool: ToolDto,
  server: ServerState | undefined,
  crashes: Map<string, number>,
): GovernedToolDto {
  const hints = readHints(tool.definition);
  const recentCrashes = crashes.get(crashKey(tool.serverId, tool.name)) ?? 0;
  return {
    ...tool,
    enforcedEffect: effectiveEffect(tool),
    isClassified: tool.effect !== null,
    hints,
    suggestedEffect: suggestEffect(hints),
    serverEnabled: server?.enabled ?? false,
    serverStatus: server?.enabled === false ? "disabled" : (server?.state ?? "unknown"),
    recentCrashes,
    isQuarantineSuggested: !tool.quarantine && recentCrashes >= QUARANTINE_SUGGESTION_CRASHES,
  };
}

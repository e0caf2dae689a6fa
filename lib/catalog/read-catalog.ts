import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { catalogEntries, catalogSnapshots, type EffectClass, mcpServers, tools } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { type CatalogDiff, type CatalogKind, emptyDiff } from "./hashing";

/** Reading the stored catalog: the DTOs the REST API, the dashboard and the gateway share. */

type TenantServer = { tenantId: string; serverId: string };
/** A database or an open transaction: every query here composes inside a caller's transaction. */
type Queryable = Pick<Database, "select" | "insert" | "update" | "delete">;
type Definition = Record<string, unknown>;

export type EntryKind = (typeof catalogEntries.$inferSelect)["kind"];

export type ToolRef = { serverName: string; toolName: string };
export type ToolDto = {
  id: string;
  serverId: string;
  serverName: string;
  name: string;
  gatewayName: string;
  title: string | null;
  description: string | null;
  definition: Definition;
  definitionHash: string;
  /** null = never classified by an admin (enforced as external-write). */
  effect: EffectClass | null;
  approvalRule: "by-effect" | "always" | "never";
  enabled: boolean;
  /** Refused until an admin reviews it and clears this (usually after it crashed its server). */
  quarantine: ToolQuarantine | null;
  removedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Other live tools of the workspace exposed under the same gateway name: a conflict to resolve. */
  conflictsWith: ToolRef[];
};

export type ToolQuarantine = { at: string; by: string | null; reason: string | null };

const toolColumns = {
  tool: tools,
  serverName: mcpServers.name,
};

type ToolRow = { tool: typeof tools.$inferSelect; serverName: string };

/** The tools of one server, by name; removed ones only when asked for (they are history). */
export async function listServerTools(
  db: Queryable,
  params: TenantServer & { includeRemoved?: boolean },
): Promise<ToolDto[]> {
  const rows = await db
    .select(toolColumns)
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(
        eq(tools.tenantId, params.tenantId),
        eq(tools.serverId, params.serverId),
        params.includeRemoved ? undefined : isNull(tools.removedAt),
      ),
    )
    .orderBy(asc(tools.name));
  const names = [...new Set(rows.map((row) => row.tool.gatewayName))];
  const namesakes = names.length === 0 ? [] : await listLiveTools(db, params.tenantId, names);
  return rows.map((row) => toToolDto(row, byGatewayName(namesakes)));
}

/**
 * Every live tool of the workspace across servers (the gateway's and the grants page's view), or
 * of `serverIds` only — then name conflicts are among those servers' tools (see withConflicts).
 */
export async function listAllTools(
  db: Queryable,
  params: { tenantId: string; serverIds?: readonly string[] },
): Promise<ToolDto[]> {
  if (params.serverIds?.length === 0) return [];
  const rows = await db
    .select(toolColumns)
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(
        eq(tools.tenantId, params.tenantId),
        isNull(tools.removedAt),
        params.serverIds ? inArray(tools.serverId, [...params.serverIds]) : undefined,
      ),
    )
    .orderBy(asc(mcpServers.name), asc(tools.name));
  const live = byGatewayName(rows);
  return rows.map((row) => toToolDto(row, live));
}

/**
 * Each live tool's name conflicts worked out again over `live`, the whole live catalog (put
 * together from parts read apart, whose conflicts only saw their own part).
 */
export function withConflicts<T extends ToolDto>(live: T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const tool of live) {
    const group = groups.get(tool.gatewayName);
    if (group) group.push(tool);
    else groups.set(tool.gatewayName, [tool]);
  }
  return live.map((tool) => {
    const namesakes = groups.get(tool.gatewayName) ?? [];
    if (namesakes.length === 1 && tool.conflictsWith.length === 0) return tool;
    const conflictsWith = namesakes
      .filter((other) => other.id !== tool.id)
      .map((other) => ({ serverName: other.serverName, toolName: other.name }));
    return { ...tool, conflictsWith };
  });
}

/**
 * Tools matching `where` (a condition on `tools` alone, lib/catalog/tool-query) in gateway-name then
 * id order, the keyset of GET /api/v1/tools: the (tenant, gateway name, id) index reads them in
 * order and stops at `limit`. Each server's name is looked up for the rows read only, and so are
 * name conflicts.
 */
export async function listToolsWhere(
  db: Queryable,
  params: { tenantId: string; where: SQL | undefined; limit: number },
): Promise<ToolDto[]> {
  const rows = await db
    .select({
      tool: tools,
      serverName: sql<string>`(select ${mcpServers.name} from ${mcpServers} where ${mcpServers.id} = ${tools.serverId})`,
    })
    .from(tools)
    .where(params.where)
    .orderBy(asc(tools.gatewayName), asc(tools.id))
    .limit(params.limit);
  const names = [...new Set(rows.map((row) => row.tool.gatewayName))];
  const namesakes = names.length === 0 ? [] : await listLiveTools(db, params.tenantId, names);
  return rows.map((row) => toToolDto(row, byGatewayName(namesakes)));
}

export async function countToolsWhere(db: Queryable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ count: count() }).from(tools).where(where);
  return row?.count ?? 0;
}

function listLiveTools(db: Queryable, tenantId: string, gatewayNames: string[]): Promise<ToolRow[]> {
  return db
    .select(toolColumns)
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(eq(tools.tenantId, tenantId), isNull(tools.removedAt), inArray(tools.gatewayName, gatewayNames)),
    );
}

/** Live tools grouped by gateway name: each tool's namesakes in one look-up (10,000 tools → 10,000, not 10⁸, steps). */
function byGatewayName(live: ToolRow[]): Map<string, ToolRow[]> {
  const groups = new Map<string, ToolRow[]>();
  for (const row of live) {
    const group = groups.get(row.tool.gatewayName);
    if (group) group.push(row);
    else groups.set(row.tool.gatewayName, [row]);
  }
  return groups;
}

function toToolDto({ tool, serverName }: ToolRow, live: Map<string, ToolRow[]>): ToolDto {
  const definition = tool.definition;
  const annotations = definition.annotations as Definition | undefined;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: tool.id,
    serverId: tool.serverId,
    serverName,
    name: tool.name,
    gatewayName: tool.gatewayName,
    title: text(definition.title) ?? text(annotations?.title),
    description: text(definition.description),
    definition,
    definitionHash: tool.definitionHash,
    effect: tool.effect,
    approvalRule: tool.approvalRule,
    enabled: tool.enabled,
    quarantine: tool.quarantinedAt
      ? { at: tool.quarantinedAt.toISOString(), by: tool.quarantinedBy, reason: tool.quarantineReason }
      : null,
    removedAt: tool.removedAt?.toISOString() ?? null,
    createdAt: tool.createdAt.toISOString(),
    updatedAt: tool.updatedAt.toISOString(),
    conflictsWith:
      tool.removedAt !== null
        ? []
        : (live.get(tool.gatewayName) ?? [])
            .filter((other) => other.tool.id !== tool.id)
            .map((other) => ({ serverName: other.serverName, toolName: other.tool.name })),
  };
}

export type CatalogEntryDto = {
  id: string;
  serverId: string;
  kind: EntryKind;
  key: string;
  definition: Definition;
  createdAt: string;
  updatedAt: string;
};

export async function listCatalogEntries(
  db: Queryable,
  params: TenantServer & { kind: EntryKind },
): Promise<CatalogEntryDto[]> {
  const rows = await db
    .select()
    .from(catalogEntries)
    .where(
      and(
        eq(catalogEntries.tenantId, params.tenantId),
        eq(catalogEntries.serverId, params.serverId),
        eq(catalogEntries.kind, params.kind),
      ),
    )
    .orderBy(asc(catalogEntries.key));
  return rows.map((row) => ({
    id: row.id,
    serverId: row.serverId,
    kind: row.kind,
    key: row.key,
    definition: row.definition,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export type SnapshotDto = {
  id: string;
  serverId: string;
  hash: string;
  takenAt: string;
  /** Against the snapshot before it; the first snapshot lists everything as added. */
  diff: CatalogDiff;
  counts: Record<CatalogKind, number>;
};

// The kind is one of four constants, inlined as a literal: a bound parameter would leave PostgreSQL
// to guess between `jsonb -> text` and `jsonb -> int`.
const countOf = (kind: CatalogKind) =>
  sql<number>`coalesce(jsonb_array_length(${catalogSnapshots.catalog} -> ${sql.raw(`'${kind}'`)}), 0)`.mapWith(
    Number,
  );

/** Newest first; `limit` defaults to 20 and is capped at 100. */
export async function listSnapshots(
  db: Queryable,
  params: TenantServer & { limit?: number },
): Promise<SnapshotDto[]> {
  const limit = Math.min(Math.max(Math.trunc(params.limit ?? 20), 1), 100);
  const rows = await db
    .select({
      id: catalogSnapshots.id,
      serverId: catalogSnapshots.serverId,
      hash: catalogSnapshots.hash,
      takenAt: catalogSnapshots.takenAt,
      diff: catalogSnapshots.diff,
      tools: countOf("tools"),
      resources: countOf("resources"),
      resourceTemplates: countOf("resourceTemplates"),
      prompts: countOf("prompts"),
    })
    .from(catalogSnapshots)
    .where(
      and(eq(catalogSnapshots.tenantId, params.tenantId), eq(catalogSnapshots.serverId, params.serverId)),
    )
    .orderBy(desc(catalogSnapshots.takenAt))
    .limit(limit);
  return rows.map(({ tools: toolCount, resources, resourceTemplates, prompts, ...row }) => ({
    id: row.id,
    serverId: row.serverId,
    hash: row.hash,
    takenAt: row.takenAt.toISOString(),
    diff: (row.diff as CatalogDiff | null) ?? emptyDiff(),
    counts: { tools: toolCount, resources, resourceTemplates, prompts },
  }));
}

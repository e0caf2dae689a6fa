import { and, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { effectClasses, mcpServers, tools } from "@/db/schema";

/**
 * The query of GET /api/v1/tools: filters done in SQL and an opaque keyset cursor, so a page costs
 * the same with 50 tools or 10,000 and paging never skips or repeats a tool while nothing changes.
 */

export const toolEffectFilters = [...effectClasses, "unclassified"] as const;
export type ToolEffectFilter = (typeof toolEffectFilters)[number];
/** The tool's own state; "quarantined" is independent of enabled (a quarantined tool may be either). */
export const toolStatusFilters = ["enabled", "disabled", "quarantined"] as const;
export type ToolStatusFilter = (typeof toolStatusFilters)[number];

export const TOOLS_PAGE_SIZE = 100;
export const TOOLS_PAGE_MAX = 500;

/** Where the previous page ended, in the list's order (gateway name, then id). */
export type ToolCursor = { gatewayName: string; id: string };

const badCursor = "cursor is not valid: pass nextCursor from the previous page unchanged.";

export const listToolsQuerySchema = z.strictObject({
  q: z.string().trim().max(200, { error: "q is at most 200 characters." }).optional().meta({
    description: "Case-insensitive substring of the gateway name, name, server, title or description.",
  }),
  server: z
    .string()
    .trim()
    .min(1, { error: "server is a server's name." })
    .max(100)
    .optional()
    .meta({ description: "Only this server's tools (its name, exactly)." }),
  effect: z
    .enum(toolEffectFilters, { error: `effect is one of ${toolEffectFilters.join(", ")}.` })
    .optional()
    .meta({
      description:
        "The effect an admin classified the tool as; unclassified = nobody has (enforced as external-write, needs review).",
    }),
  status: z
    .enum(toolStatusFilters, { error: `status is one of ${toolStatusFilters.join(", ")}.` })
    .optional()
    .meta({ description: "enabled or disabled (the tool's own switch), or quarantined." }),
  limit: z.coerce
    .number({ error: `limit is a whole number from 1 to ${TOOLS_PAGE_MAX}.` })
    .int({ error: `limit is a whole number from 1 to ${TOOLS_PAGE_MAX}.` })
    .min(1, { error: `limit is a whole number from 1 to ${TOOLS_PAGE_MAX}.` })
    .max(TOOLS_PAGE_MAX, { error: `limit is at most ${TOOLS_PAGE_MAX}.` })
    .default(TOOLS_PAGE_SIZE)
    .meta({ description: `Tools per page, ${TOOLS_PAGE_SIZE} unless given, at most ${TOOLS_PAGE_MAX}.` }),
  cursor: z
    .string()
    .max(1000, { error: badCursor })
    .transform((value, ctx) => {
      const cursor = decodeToolCursor(value);
      if (!cursor) ctx.addIssue({ code: "custom", message: badCursor });
      return cursor ?? z.NEVER;
    })
    .optional()
    .meta({ description: "nextCursor of the previous page; leave out for the first page." }),
});

export type ListToolsQuery = z.output<typeof listToolsQuerySchema>;
export type ToolFilters = Omit<ListToolsQuery, "limit" | "cursor">;

export function encodeToolCursor(cursor: ToolCursor): string {
  return Buffer.from(JSON.stringify([cursor.gatewayName, cursor.id]), "utf8").toString("base64url");
}

function decodeToolCursor(value: string): ToolCursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [gatewayName, id] = parsed;
    return typeof gatewayName === "string" && typeof id === "string" && id ? { gatewayName, id } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The filters as one condition on `tools` alone (live tools of the workspace). A server's name is
 * matched through a sub-select rather than a join: without planner statistics (PGlite is never
 * analyzed) a join made PostgreSQL read and join every tool before taking the first page.
 */
export function toolFilterCondition(tenantId: string, filters: ToolFilters): SQL | undefined {
  return and(
    eq(tools.tenantId, tenantId),
    isNull(tools.removedAt),
    filters.q ? matchesText(tenantId, filters.q) : undefined,
    // A name is unique in a workspace: one id, compared as a value (a plan parameter), which keeps the
    // page in index order where `in (…)` made PostgreSQL join first.
    filters.server
      ? eq(tools.serverId, serverIdsWhere(tenantId, eq(mcpServers.name, filters.server)))
      : undefined,
    filters.effect === "unclassified"
      ? isNull(tools.effect)
      : filters.effect
        ? eq(tools.effect, filters.effect)
        : undefined,
    filters.status === "enabled"
      ? eq(tools.enabled, true)
      : filters.status === "disabled"
        ? eq(tools.enabled, false)
        : filters.status === "quarantined"
          ? isNotNull(tools.quarantinedAt)
          : undefined,
  );
}

/** After the cursor in (gateway name, id) order: a range of the live-tools index (tools_live_page_idx). */
export const afterCursor = (cursor: ToolCursor): SQL =>
  sql`(${tools.gatewayName}, ${tools.id}) > (${cursor.gatewayName}, ${cursor.id})`;

/** The same fields as the DTO's title and description (lib/catalog/read-catalog toToolDto). */
function matchesText(tenantId: string, q: string): SQL | undefined {
  // A literal substring: %, _ and \ the person typed match themselves, not LIKE's wildcards.
  const pattern = `%${q.replace(/[\\%_]/g, "\\$&")}%`;
  const definition = tools.definition;
  return or(
    ilike(tools.gatewayName, pattern),
    ilike(tools.name, pattern),
    inArray(tools.serverId, serverIdsWhere(tenantId, ilike(mcpServers.name, pattern))),
    sql`coalesce(${definition} ->> 'title', ${definition} -> 'annotations' ->> 'title') ilike ${pattern}`,
    sql`${definition} ->> 'description' ilike ${pattern}`,
  );
}

const serverIdsWhere = (tenantId: string, condition: SQL): SQL =>
  sql`(select ${mcpServers.id} from ${mcpServers} where ${and(eq(mcpServers.tenantId, tenantId), condition)})`;

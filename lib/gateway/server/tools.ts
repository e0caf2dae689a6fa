import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, isNull } from "drizzle-orm";
import { mcpServers, tools } from "@/db/schema";
import { principalGrants } from "@/lib/calls/call-decision";
import { cachedGovernedTools } from "@/lib/catalog/cached-catalog";
import type { GovernedToolDto } from "@/lib/catalog/governed-tools";
import { isPlainGatewayName } from "@/lib/catalog/naming";
import type { Database } from "@/lib/db/client";
import { discoveryTools } from "@/lib/gateway/discovery/definitions";
import type { DiscoverableTool } from "@/lib/gateway/discovery/tool-search";
import { decisionCache } from "@/lib/policy/decision-cache";
import type { EffectClass } from "@/lib/policy/effects";
import { findGrant } from "@/lib/policy/grant-patterns";
import { metaTools } from "./meta-tools";

/**
 * What the gateway advertises: the principal's granted, enabled, live tools of enabled servers.
 * The downstream definition is passed through as stored (description, inputSchema, outputSchema
 * untouched — no schema library in between, so `$schema`, `$defs`, `additionalProperties` stay).
 * Only the name and the annotations are Switchboard's: annotations come from the enforced effect,
 * so what a client is told can never drift from what is enforced.
 */

/**
 * `"all"` = /mcp (gateway names); `"discover"` = /mcp/discover (the same tools, found through
 * Switchboard's discovery tools instead of listed); `{server}` = /mcp/servers/{server} (the tools'
 * own names).
 */
export type GatewayScope = "all" | "discover" | { server: string };

/** The one server an endpoint is about, or undefined for the endpoints over every server. */
export const serverOfScope = (scope: GatewayScope): string | undefined =>
  typeof scope === "string" ? undefined : scope.server;

/** `/mcp` → every server; `/mcp/discover` → every server, by discovery; `/mcp/servers/<name>` → one. */
export function gatewayScopeOf(pathname: string): GatewayScope | undefined {
  const path = pathname.replace(/\/+$/, "");
  if (path === "/mcp") return "all";
  if (path === "/mcp/discover") return "discover";
  const match = /^\/mcp\/servers\/([^/]+)$/.exec(path);
  if (!match?.[1]) return undefined;
  try {
    return { server: decodeURIComponent(match[1]) };
  } catch {
    return undefined;
  }
}

/** The path of an endpoint: gatewayScopeOf's inverse. */
export function gatewayPathOf(scope: GatewayScope): string {
  if (scope === "all") return "/mcp";
  if (scope === "discover") return "/mcp/discover";
  return `/mcp/servers/${encodeURIComponent(scope.server)}`;
}

/**
 * The principal's callable granted tools under their gateway names, as `/mcp` lists them. Built
 * once per principal and kept with the call path's look-ups: clients list again after every
 * list_changed, and the events that send it are the ones that drop these. A principal granted
 * everything of 10,000 tools is 10,000 grant checks and definitions to copy.
 */
export function grantedTools(
  db: Database,
  params: { tenantId: string; principalId: string },
): Promise<DiscoverableTool[]> {
  const { tenantId, principalId } = params;
  return decisionCache.get(tenantId, `gateway-granted:${principalId}`, async () => {
    const [all, grants] = await Promise.all([
      cachedGovernedTools(db, { tenantId }),
      principalGrants(db, { tenantId, principalId }),
    ]);
    return all
      .filter((tool) => isCallable(tool) && findGrant(grants, tool.gatewayName) !== undefined)
      .map((tool) => ({
        tool: toGatewayTool(tool, tool.gatewayName),
        server: tool.serverName,
        effect: tool.isClassified ? tool.enforcedEffect : ("unclassified" as const),
        governed: tool,
      }));
  });
}

/** What tools/list holds besides the meta tools: every granted tool, one server's, or none (discovery). */
export async function listGatewayTools(
  db: Database,
  params: { tenantId: string; principalId: string; scope: GatewayScope },
): Promise<Tool[]> {
  const { scope } = params;
  if (scope === "discover") return [];
  const granted = await grantedTools(db, params);
  let list = listOf.get(granted)?.get(serverOfScope(scope) ?? "");
  if (list === undefined) {
    list =
      scope === "all"
        ? granted.map((entry) => entry.tool)
        : granted
            .filter((entry) => entry.server === scope.server)
            .map((entry) => toGatewayTool(entry.governed, entry.governed.name));
    const lists = listOf.get(granted) ?? new Map<string, Tool[]>();
    lists.set(serverOfScope(scope) ?? "", list);
    listOf.set(granted, lists);
  }
  return list;
}

/** Each granted list's tools/list answers, by server ("" for all), made once per list. */
const listOf = new WeakMap<DiscoverableTool[], Map<string, Tool[]>>();

/** The JSON of a cached list, made once: 10,000 tools are ~5 MB of it, longer to write than to send. */
const listJson = new WeakMap<Tool[], Buffer>();

/**
 * A tools/list result's `tools` (withSwitchboardTools), as UTF-8 JSON: what gateway-direct answers
 * tools/list with. Kept as long as the list it was made from, no longer.
 */
export async function gatewayToolsJson(
  db: Database,
  params: { tenantId: string; principalId: string; scope: GatewayScope },
): Promise<Buffer> {
  const list = await listGatewayTools(db, params);
  let json = listJson.get(list);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(withSwitchboardTools(params.scope, list)));
    listJson.set(list, json);
  }
  return json;
}

/**
 * A tools/list's whole `tools`: the call collectors first, then the principal's tools, then the
 * discovery tools on /mcp; on /mcp/discover the discovery tools and the collectors alone.
 */
export function withSwitchboardTools(scope: GatewayScope, list: Tool[]): Tool[] {
  if (scope === "discover") return [...discoveryTools, ...metaTools];
  if (scope === "all") return [...metaTools, ...list, ...discoveryTools];
  return [...metaTools, ...list];
}

/** A tool the governed path would run: live, enabled, on an enabled server, not a name conflict. */
function isCallable(tool: GovernedToolDto): boolean {
  return tool.removedAt === null && tool.enabled && tool.serverEnabled && tool.conflictsWith.length === 0;
}

export function toGatewayTool(tool: GovernedToolDto, name: string): Tool {
  const { annotations, name: _downstreamName, ...definition } = tool.definition as Record<string, unknown>;
  // A name rewritten or shortened (lib/catalog/naming) hides the tool's own: the title keeps it
  // visible — the downstream title (top-level, then the annotation's) or else the tool's own name.
  const isRenamed = name !== tool.name && !isPlainGatewayName(tool.serverName, tool.name, name);
  const ownTitle = typeof definition.title === "string" ? definition.title : readTitle(annotations);
  const title = isRenamed ? (ownTitle ?? tool.name) : readTitle(annotations);
  return {
    ...definition,
    ...(isRenamed ? { title } : {}),
    name,
    // MCP requires an object schema; a definition without one (already flagged in the catalog) gets the empty one.
    inputSchema: (definition.inputSchema as Tool["inputSchema"] | undefined) ?? { type: "object" },
    annotations: {
      ...(title ? { title } : {}),
      ...annotationsFor(tool.isClassified ? tool.enforcedEffect : "unclassified"),
    },
  } as Tool;
}

/** The display title is not a behaviour claim, so it is the one annotation kept from downstream. */
function readTitle(annotations: unknown): string | undefined {
  if (!annotations || typeof annotations !== "object") return undefined;
  const title = (annotations as Record<string, unknown>).title;
  return typeof title === "string" ? title : undefined;
}

/**
 * The hints that describe the enforced effect. Spelled out in full where MCP's defaults
 * (destructive and open-world unless said otherwise) would otherwise claim more than is enforced.
 * A tool nobody reviewed is advertised as MCP's default for a non-read-only tool — destructive —
 * even though the gate enforces it as external-write: a client that prompts from hints must not
 * treat an unreviewed tool as safe.
 */
export function annotationsFor(effect: EffectClass | "unclassified"): ToolAnnotations {
  switch (effect) {
    case "unclassified":
      return { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
    case "read":
      return { readOnlyHint: true };
    case "write":
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    case "external-write":
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
    case "destructive":
      return { readOnlyHint: false, destructiveHint: true };
  }
}

/**
 * The gateway name behind a tool's own name on the per-server endpoint (names may be shortened
 * with a hash, so it is looked up, not built). Unknown names still go to the governed path under
 * the plain `<server>__<tool>` form, where an ungranted caller is refused before anything is
 * looked up — so the answer says nothing about what exists.
 */
export async function resolveGatewayName(
  db: Database,
  params: { tenantId: string; scope: GatewayScope; name: string },
): Promise<string> {
  const server = serverOfScope(params.scope);
  if (server === undefined) return params.name;
  // Cached like the call path's other look-ups (a rename is a catalog.changed or server.updated,
  // which drops it); a miss is not kept, so unknown names cost a query and fill nothing.
  const found = await decisionCache.get(
    params.tenantId,
    `gateway-name:${JSON.stringify([server, params.name])}`,
    () => findGatewayName(db, { tenantId: params.tenantId, server, name: params.name }),
  );
  return found ?? `${server}__${params.name}`;
}

async function findGatewayName(
  db: Database,
  params: { tenantId: string; server: string; name: string },
): Promise<string | undefined> {
  const [row] = await db
    .select({ gatewayName: tools.gatewayName })
    .from(tools)
    .innerJoin(mcpServers, eq(mcpServers.id, tools.serverId))
    .where(
      and(
        eq(tools.tenantId, params.tenantId),
        eq(mcpServers.name, params.server),
        eq(tools.name, params.name),
        isNull(tools.removedAt),
      ),
    )
    .limit(1);
  return row?.gatewayName;
}

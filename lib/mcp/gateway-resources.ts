import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  type Prompt,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import { and, asc, eq, inArray } from "drizzle-orm";
import { catalogEntries, mcpServers } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { GRANT_ALL } from "@/lib/policy/grants";
import { listGrantPatterns } from "@/lib/principals/principals";
import { getServerRuntime } from "@/lib/runtime/server-runtime";
import type { GatewayPrincipal } from "./gateway-auth";
import type { GatewayScope } from "./gateway-tools";

/**
 * Resources, resource templates and prompts of permitted servers, passed through the gateway.
 *
 * The rule: a principal may see (list, read, get) a server's resources, templates and prompts when
 * it is granted at least one tool of that server — a grant pattern `*`, `<server>__*`, or any
 * `<server>__<tool>`. Only enabled servers count. Everything else is invisible, and reading or
 * getting it anyway is an InvalidParams error that does not say whether it exists.
 *
 * Listings come from the stored catalog (definitions verbatim, as discovered); reads and prompt
 * gets are forwarded to the server's pooled client, and what it answers is returned as data —
 * never interpreted. On `/mcp` prompt names are `<server>__<prompt>` (server names have no `_`,
 * so the first `__` ends the server part); resource URIs are never renamed: a read is routed to the
 * permitted server whose catalog lists the URI (first by server name if several do), else to the
 * first whose resource template matches it. On `/mcp/servers/{name}` names are unchanged.
 */

const PROMPT_SEPARATOR = "__";

type PermittedServer = { id: string; name: string };
type Context = { principal: GatewayPrincipal; scope: GatewayScope; signal: AbortSignal };
type Entry = { server: PermittedServer; definition: Record<string, unknown> };
type EntryKind = (typeof catalogEntries.$inferSelect)["kind"];

/** Whether the grant patterns give the principal at least one tool of the server (see the rule above). */
export function mayUseServerCatalog(patterns: readonly string[], serverName: string): boolean {
  return patterns.some(
    (pattern) => pattern === GRANT_ALL || pattern.startsWith(`${serverName}${PROMPT_SEPARATOR}`),
  );
}

export function registerResourceHandlers(server: Server, db: Database, context: Context): void {
  const { principal, scope } = context;
  const perRequest = { tenantId: principal.tenantId, principalId: principal.principalId, scope };

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const entries = await listEntries(db, perRequest, "resource");
    return { resources: uniqueResources(entries).map((entry) => entry.definition as Resource) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    const entries = await listEntries(db, perRequest, "resource-template");
    return { resourceTemplates: entries.map((entry) => entry.definition as ResourceTemplate) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const target = await findResourceServer(db, perRequest, uri);
    if (!target) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource ${uri}: no server this principal may use lists it.`,
      );
    }
    const client = await pooledClient(target.id);
    return client.readResource(request.params, { signal: AbortSignal.any([extra.signal, context.signal]) });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    const entries = await listEntries(db, perRequest, "prompt");
    return {
      prompts: entries.map(({ server: owner, definition }) => {
        const prompt = definition as Prompt;
        return scope === "all"
          ? { ...prompt, name: `${owner.name}${PROMPT_SEPARATOR}${prompt.name}` }
          : prompt;
      }),
    };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const { name } = request.params;
    const target = await findPrompt(db, perRequest, name);
    if (!target) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt ${name}: no server this principal may use offers it.`,
      );
    }
    const client = await pooledClient(target.server.id);
    return client.getPrompt(
      { ...request.params, name: target.promptName },
      { signal: AbortSignal.any([extra.signal, context.signal]) },
    );
  });
}

type PerRequest = { tenantId: string; principalId: string; scope: GatewayScope };

/** Enabled servers in scope the principal may use, by name. */
async function permittedServers(db: Database, params: PerRequest): Promise<PermittedServer[]> {
  const [patterns, servers] = await Promise.all([
    listGrantPatterns(db, { tenantId: params.tenantId, principalId: params.principalId }),
    db
      .select({ id: mcpServers.id, name: mcpServers.name })
      .from(mcpServers)
      .where(
        and(
          eq(mcpServers.tenantId, params.tenantId),
          eq(mcpServers.enabled, true),
          params.scope === "all" ? undefined : eq(mcpServers.name, params.scope.server),
        ),
      )
      .orderBy(asc(mcpServers.name)),
  ]);
  return servers.filter((server) => mayUseServerCatalog(patterns, server.name));
}

async function listEntries(
  db: Database,
  params: PerRequest,
  kind: EntryKind,
  known?: PermittedServer[],
): Promise<Entry[]> {
  const servers = known ?? (await permittedServers(db, params));
  if (servers.length === 0) return [];
  const byId = new Map(servers.map((server) => [server.id, server]));
  const rows = await db
    .select({ serverId: catalogEntries.serverId, definition: catalogEntries.definition })
    .from(catalogEntries)
    .where(
      and(
        eq(catalogEntries.tenantId, params.tenantId),
        eq(catalogEntries.kind, kind),
        inArray(catalogEntries.serverId, [...byId.keys()]),
      ),
    )
    .orderBy(asc(catalogEntries.key));
  return rows
    .map((row) => ({ server: byId.get(row.serverId), definition: row.definition }))
    .filter((entry): entry is Entry => entry.server !== undefined)
    .sort((a, b) => a.server.name.localeCompare(b.server.name));
}

/** One entry per URI: the one a read of it is routed to. */
function uniqueResources(entries: Entry[]): Entry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const uri = String(entry.definition.uri);
    if (seen.has(uri)) return false;
    seen.add(uri);
    return true;
  });
}

async function findResourceServer(
  db: Database,
  params: PerRequest,
  uri: string,
): Promise<PermittedServer | undefined> {
  const servers = await permittedServers(db, params);
  const listed = await listEntries(db, params, "resource", servers);
  const exact = listed.find((entry) => entry.definition.uri === uri);
  if (exact) return exact.server;
  const templates = await listEntries(db, params, "resource-template", servers);
  return templates.find((entry) => templateMatches(entry.definition.uriTemplate, uri))?.server;
}

function templateMatches(template: unknown, uri: string): boolean {
  if (typeof template !== "string") return false;
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false; // a template the SDK cannot parse matches nothing
  }
}

async function findPrompt(
  db: Database,
  params: PerRequest,
  name: string,
): Promise<{ server: PermittedServer; promptName: string } | undefined> {
  let serverName: string | undefined;
  let promptName = name;
  if (params.scope === "all") {
    const at = name.indexOf(PROMPT_SEPARATOR);
    if (at <= 0) return undefined;
    serverName = name.slice(0, at);
    promptName = name.slice(at + PROMPT_SEPARATOR.length);
  }
  const prompts = await listEntries(db, params, "prompt");
  const found = prompts.find(
    (entry) =>
      entry.definition.name === promptName && (serverName === undefined || entry.server.name === serverName),
  );
  return found ? { server: found.server, promptName } : undefined;
}

async function pooledClient(serverId: string) {
  const runtime = await getServerRuntime();
  if (!runtime) {
    throw new McpError(ErrorCode.InternalError, "The connection pool is not running in this process.");
  }
  return runtime.pool.getClient(serverId);
}

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { and, asc, eq, inArray } from "drizzle-orm";
import { catalogEntries, mcpServers } from "@/db/schema";
import { principalGrants } from "@/lib/calls/call-decision";
import type { Database } from "@/lib/db/client";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { coversServerCatalog, grantsAnyOfServer } from "@/lib/policy/grant-patterns";
import { requireServerRuntime } from "@/lib/runtime/server-runtime";
import { type GatewayScope, serverOfScope } from "./tools";

/**
 * Which servers' resources, resource templates and prompts a principal may reach through the
 * gateway, and which server a URI or prompt name leads to.
 *
 * The rule (lib/policy/grant-patterns.ts, coversServerCatalog): a principal may see (list, read,
 * get, complete, subscribe) a server's resources, templates and prompts when a grant covers the
 * whole server — `<server>__*` or `*`. A grant of single tools of it does not: the principal knows
 * the server, so asking is refused naming the grant it lacks (catalog-access.ts). Only enabled
 * servers count. Everything else is invisible, and asking for it anyway is an InvalidParams error
 * that does not say whether it exists.
 *
 * Listings come from the stored catalog (definitions verbatim, as discovered). On `/mcp` prompt
 * names are `<server>__<prompt>` (server names have no `_`, so the first `__` ends the server part);
 * resource URIs are never renamed: a URI leads to the permitted server whose catalog lists it
 * (first by server name if several do), else to the first whose resource template matches it.
 */

export const PROMPT_SEPARATOR = "__";

export type PermittedServer = { id: string; name: string };
/** A server whose tools the principal is granted, and whether its grants cover its catalog too. */
export type GrantedServer = PermittedServer & { coversCatalog: boolean };
export type CatalogScope = { tenantId: string; principalId: string; scope: GatewayScope };
export type Entry = { server: PermittedServer; definition: Record<string, unknown> };
type EntryKind = (typeof catalogEntries.$inferSelect)["kind"];

export const catalogScopeOf = (context: {
  principal: GatewayPrincipal;
  scope: GatewayScope;
}): CatalogScope => ({
  tenantId: context.principal.tenantId,
  principalId: context.principal.principalId,
  scope: context.scope,
});

/** Enabled servers in scope the principal may use, by name. */
export async function permittedServers(db: Database, params: CatalogScope): Promise<PermittedServer[]> {
  return (await grantedServers(db, params))
    .filter((server) => server.coversCatalog)
    .map(({ id, name }) => ({ id, name }));
}

/** Enabled servers in scope the principal is granted anything of, by name. */
export async function grantedServers(db: Database, params: CatalogScope): Promise<GrantedServer[]> {
  const [patterns, servers] = await Promise.all([
    // The same per-process cache the call path reads: sessions list again after every list_changed.
    principalGrants(db, { tenantId: params.tenantId, principalId: params.principalId }),
    db
      .select({ id: mcpServers.id, name: mcpServers.name })
      .from(mcpServers)
      .where(
        and(
          eq(mcpServers.tenantId, params.tenantId),
          eq(mcpServers.enabled, true),
          serverNameCondition(params.scope),
        ),
      )
      .orderBy(asc(mcpServers.name)),
  ]);
  return servers
    .filter((server) => grantsAnyOfServer(patterns, server.name))
    .map((server) => ({ ...server, coversCatalog: coversServerCatalog(patterns, server.name) }));
}

export async function listEntries(
  db: Database,
  params: CatalogScope,
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

/** The server a resource URI leads to (see the rule above). */
export async function findResourceServer(
  db: Database,
  params: CatalogScope,
  uri: string,
  known?: PermittedServer[],
): Promise<PermittedServer | undefined> {
  const servers = known ?? (await permittedServers(db, params));
  const listed = await listEntries(db, params, "resource", servers);
  const exact = listed.find((entry) => entry.definition.uri === uri);
  if (exact) return exact.server;
  const templates = await listEntries(db, params, "resource-template", servers);
  return templates.find((entry) => templateMatches(entry.definition.uriTemplate, uri))?.server;
}

/** findResourceServer for a request naming the URI: one no permitted server lists is invalid params. */
export async function resourceServerOrThrow(
  db: Database,
  params: CatalogScope,
  uri: string,
): Promise<PermittedServer> {
  const target = await findResourceServer(db, params, uri);
  if (!target) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}: no server this principal may use lists it.`,
    );
  }
  return target;
}

/** The server that lists `uri` as a resource template (completions name templates, not resources). */
export async function findTemplateServer(
  db: Database,
  params: CatalogScope,
  uri: string,
): Promise<PermittedServer | undefined> {
  const templates = await listEntries(db, params, "resource-template");
  return (
    templates.find((entry) => entry.definition.uriTemplate === uri)?.server ??
    (await findResourceServer(db, params, uri))
  );
}

function templateMatches(template: unknown, uri: string): boolean {
  if (typeof template !== "string") return false;
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false; // a template the SDK cannot parse matches nothing
  }
}

/** The server and its own name of a prompt named as the client sees it. */
export async function findPrompt(
  db: Database,
  params: CatalogScope,
  name: string,
  known?: PermittedServer[],
): Promise<{ server: PermittedServer; promptName: string } | undefined> {
  let serverName: string | undefined;
  let promptName = name;
  if (serverOfScope(params.scope) === undefined) {
    const at = name.indexOf(PROMPT_SEPARATOR);
    if (at <= 0) return undefined;
    serverName = name.slice(0, at);
    promptName = name.slice(at + PROMPT_SEPARATOR.length);
  }
  const prompts = await listEntries(db, params, "prompt", known);
  const found = prompts.find(
    (entry) =>
      entry.definition.name === promptName && (serverName === undefined || entry.server.name === serverName),
  );
  return found ? { server: found.server, promptName } : undefined;
}

export async function pooledClient(serverId: string): Promise<Client> {
  return (await runningPool()).getClient(serverId);
}

export async function runningPool() {
  return (await requireServerRuntime()).pool;
}

/** Only the endpoint's server, on /mcp/servers/{name}. */
function serverNameCondition(scope: GatewayScope) {
  const server = serverOfScope(scope);
  return server === undefined ? undefined : eq(mcpServers.name, server);
}

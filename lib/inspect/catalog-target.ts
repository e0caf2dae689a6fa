import "server-only";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { and, eq } from "drizzle-orm";
import { mcpServers } from "@/db/schema";
import { listCatalogEntries } from "@/lib/catalog/read-catalog";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * What an operator may inspect of a server: only what its stored catalog lists — a listed
 * resource URI, a URI one of its resource templates matches, a prompt it lists. The gateway holds
 * agents to the same (lib/gateway/server/catalog.ts); without it the Playground would let an
 * approver ask a filesystem server for any `file://` URI it can open.
 */

export type InspectServer = { id: string; name: string; enabled: boolean; callTimeoutMs: number };
type Definition = Record<string, unknown>;

export async function findInspectServer(
  db: Database,
  params: { tenantId: string; serverId: string },
): Promise<InspectServer> {
  const [server] = await db
    .select({
      id: mcpServers.id,
      name: mcpServers.name,
      enabled: mcpServers.enabled,
      callTimeoutMs: mcpServers.callTimeoutMs,
    })
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), eq(mcpServers.id, params.serverId)));
  if (!server) throw new AppError("not_found", "There is no such server in this workspace.");
  return server;
}

/** The resource or template definition that covers `uri`, or a 404 naming the server. */
export async function requireListedResource(
  db: Database,
  params: { tenantId: string; server: InspectServer; uri: string },
): Promise<Definition> {
  const scope = { tenantId: params.tenantId, serverId: params.server.id };
  const resources = await listCatalogEntries(db, { ...scope, kind: "resource" });
  const listed = resources.find((entry) => entry.definition.uri === params.uri);
  if (listed) return listed.definition;
  const templates = await listCatalogEntries(db, { ...scope, kind: "resource-template" });
  const matching = templates.find((entry) => templateMatches(entry.definition.uriTemplate, params.uri));
  if (matching) return matching.definition;
  throw new AppError(
    "not_found",
    `${params.server.name} lists no resource ${params.uri}, and none of its resource templates matches it.`,
  );
}

/** The resource template `uriTemplate` exactly as the server lists it, or a 404. */
export async function requireListedTemplate(
  db: Database,
  params: { tenantId: string; server: InspectServer; uriTemplate: string },
): Promise<Definition> {
  const templates = await listCatalogEntries(db, {
    tenantId: params.tenantId,
    serverId: params.server.id,
    kind: "resource-template",
  });
  const found = templates.find((entry) => entry.definition.uriTemplate === params.uriTemplate);
  if (!found) {
    throw new AppError(
      "not_found",
      `${params.server.name} lists no resource template ${params.uriTemplate}.`,
    );
  }
  return found.definition;
}

/** The prompt `name` as the server lists it, or a 404. */
export async function requireListedPrompt(
  db: Database,
  params: { tenantId: string; server: InspectServer; name: string },
): Promise<Definition> {
  const prompts = await listCatalogEntries(db, {
    tenantId: params.tenantId,
    serverId: params.server.id,
    kind: "prompt",
  });
  const found = prompts.find((entry) => entry.definition.name === params.name);
  if (!found) throw new AppError("not_found", `${params.server.name} lists no prompt ${params.name}.`);
  return found.definition;
}

/** A prompt's declared arguments: names, and which the server requires. */
export function promptArgumentsOf(definition: Definition): { name: string; required: boolean }[] {
  const declared = Array.isArray(definition.arguments) ? definition.arguments : [];
  return declared.flatMap((arg) =>
    typeof arg === "object" && arg !== null && typeof (arg as Definition).name === "string"
      ? [{ name: (arg as Definition).name as string, required: (arg as Definition).required === true }]
      : [],
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

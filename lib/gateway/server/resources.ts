import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type Prompt,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { catalogScopeOf, type Entry, listEntries, PROMPT_SEPARATOR } from "./catalog";
import { refuseUncoveredListing, resolvePromptGet, resolveResourceRead } from "./catalog-access";
import type { GatewayContext } from "./context";
import { readThroughGateway } from "./reads";
import { serverOfScope } from "./tools";

/**
 * Resources, resource templates and prompts of permitted servers (catalog.ts says which), passed
 * through the gateway. Reads and prompt gets go the governed path (reads.ts): authorized, gated,
 * recorded as calls of their kind, run on the server's pooled client; what it answers is returned
 * as data — never interpreted. On `/mcp/servers/{name}` names are
 * unchanged; on `/mcp` prompts are `<server>__<prompt>`.
 */

export function registerResourceHandlers(server: Server, db: Database, context: GatewayContext): void {
  const { scope, principal } = context;
  const perRequest = catalogScopeOf(context);
  const listable = () => refuseUncoveredListing(db, { ...perRequest, principal });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    await listable();
    const entries = await listEntries(db, perRequest, "resource");
    return { resources: uniqueResources(entries).map((entry) => entry.definition as Resource) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    await listable();
    const entries = await listEntries(db, perRequest, "resource-template");
    return { resourceTemplates: entries.map((entry) => entry.definition as ResourceTemplate) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const target = await resolveResourceRead(db, perRequest, uri);
    return (await readThroughGateway(db, {
      principal,
      kind: "resource_read",
      serverId: target.id,
      target: uri,
      signal: context.signalFor(extra),
      // Read per request, not per session: a changed setting applies to open sessions too.
      waitSeconds: readEnv().mcpApprovalWaitSeconds,
    })) as ReadResourceResult;
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    await listable();
    const entries = await listEntries(db, perRequest, "prompt");
    return {
      prompts: entries.map(({ server: owner, definition }) => {
        const prompt = definition as Prompt;
        return serverOfScope(scope) === undefined
          ? { ...prompt, name: `${owner.name}${PROMPT_SEPARATOR}${prompt.name}` }
          : prompt;
      }),
    };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const target = await resolvePromptGet(db, perRequest, request.params.name);
    return (await readThroughGateway(db, {
      principal,
      kind: "prompt_get",
      serverId: target.server.id,
      target: target.promptName,
      arguments: request.params.arguments,
      signal: context.signalFor(extra),
      waitSeconds: readEnv().mcpApprovalWaitSeconds,
    })) as GetPromptResult;
  });
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

import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
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
import type { Database } from "@/lib/db/client";
import {
  catalogScopeOf,
  type Entry,
  findPrompt,
  listEntries,
  PROMPT_SEPARATOR,
  pooledClient,
  resourceServerOrThrow,
} from "./catalog";
import type { GatewayContext } from "./context";

/**
 * Resources, resource templates and prompts of permitted servers (gateway-catalog says which),
 * passed through the gateway. Reads and prompt gets are forwarded to the server's pooled client,
 * and what it answers is returned as data — never interpreted. On `/mcp/servers/{name}` names are
 * unchanged; on `/mcp` prompts are `<server>__<prompt>`.
 */

export function registerResourceHandlers(server: Server, db: Database, context: GatewayContext): void {
  const { scope } = context;
  const perRequest = catalogScopeOf(context);

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
    const target = await resourceServerOrThrow(db, perRequest, uri);
    const client = await pooledClient(target.id);
    return client.readResource(request.params, { signal: context.signalFor(extra) });
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
      { signal: context.signalFor(extra) },
    );
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

import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/lib/db/client";
import { catalogScopeOf, findPrompt, findTemplateServer, pooledClient } from "./catalog";
import type { GatewayContext } from "./context";

/**
 * completion/complete for the arguments of a permitted server's prompts and resource templates,
 * forwarded to that server (prompt names translated back on /mcp). A server that offers no
 * completions has none to suggest: an empty list, as MCP allows, rather than an error.
 */
export function registerCompletionHandler(server: Server, db: Database, context: GatewayContext): void {
  const perRequest = catalogScopeOf(context);

  server.setRequestHandler(CompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref } = request.params;
    let serverId: string | undefined;
    let params = request.params;
    if (ref.type === "ref/prompt") {
      const prompt = await findPrompt(db, perRequest, ref.name);
      serverId = prompt?.server.id;
      if (prompt) params = { ...params, ref: { ...ref, name: prompt.promptName } };
    } else {
      serverId = (await findTemplateServer(db, perRequest, ref.uri))?.id;
    }
    if (!serverId) {
      const what = ref.type === "ref/prompt" ? `prompt ${ref.name}` : `resource template ${ref.uri}`;
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown ${what}: no server this principal may use offers it.`,
      );
    }
    const client = await pooledClient(serverId);
    if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
    return client.complete(params, { signal: context.signalFor(extra) });
  });
}

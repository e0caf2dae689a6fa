import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { missingCatalogGrant } from "@/lib/calls/call-decision";
import type { Database } from "@/lib/db/client";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import {
  type CatalogScope,
  findPrompt,
  findResourceServer,
  type GrantedServer,
  grantedServers,
  type PermittedServer,
} from "./catalog";
import { serverOfScope } from "./tools";

/**
 * Where a read or a prompt get leads, for the governed path to decide (lib/calls/execute-catalog-read):
 * first among the servers whose catalog the principal may read, then among those it is granted
 * single tools of only. The second kind is not hidden — the principal knows the server — so the
 * request is recorded as denied and refused naming the grant it lacks. A URI or prompt of no server
 * the principal is granted anything of stays "unknown", saying nothing of whether it exists.
 */

/** On /mcp/servers/{name}, listing a server's resources or prompts with only tool grants is refused. */
export async function refuseUncoveredListing(
  db: Database,
  params: CatalogScope & { principal: GatewayPrincipal },
): Promise<void> {
  if (serverOfScope(params.scope) === undefined) return; // /mcp lists only what the principal may read
  const [server] = await grantedServers(db, params);
  if (server && !server.coversCatalog) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      missingCatalogGrant(params.principal.principalName, server.name),
    );
  }
}

export async function resolveResourceRead(
  db: Database,
  params: CatalogScope,
  uri: string,
): Promise<PermittedServer> {
  const found = await firstOf(db, params, (servers) => findResourceServer(db, params, uri, servers));
  if (!found) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}: no server this principal may use lists it.`,
    );
  }
  return found;
}

export async function resolvePromptGet(
  db: Database,
  params: CatalogScope,
  name: string,
): Promise<{ server: PermittedServer; promptName: string }> {
  const found = await firstOf(db, params, (servers) => findPrompt(db, params, name, servers));
  if (!found) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown prompt ${name}: no server this principal may use offers it.`,
    );
  }
  return found;
}

/** `find` among the covered servers, then among the others the principal is granted tools of. */
async function firstOf<T>(
  db: Database,
  params: CatalogScope,
  find: (servers: PermittedServer[]) => Promise<T | undefined>,
): Promise<T | undefined> {
  const servers = await grantedServers(db, params);
  const plain = (covered: boolean) =>
    servers
      .filter((server: GrantedServer) => server.coversCatalog === covered)
      .map(({ id, name }) => ({ id, name }));
  return (await find(plain(true))) ?? (await find(plain(false)));
}

import { toErrorBody } from "@/lib/errors";
import { checkRequest } from "@/lib/http/request-guard";
import { handleGatewayRequest } from "./gateway";
import type { GatewayScope } from "./gateway-tools";

/**
 * The gateway's own front door, for the Switchboard server (server.mjs): MCP requests answered
 * without Next.js's page and route machinery, which costs more per request than the whole governed
 * call. It is the same handler the /mcp route files use, behind the same Host/Origin/credential
 * checks proxy.ts applies to every other path. Registered on globalThis by instrumentation.ts, so
 * server.mjs reaches this module graph (and its process-wide state) without a second copy of it.
 */
export async function serveGatewayRequest(req: Request): Promise<Response> {
  const refusal = checkRequest(req);
  if (refusal) return Response.json({ error: toErrorBody(refusal) }, { status: refusal.status });
  const scope = gatewayScopeOf(new URL(req.url).pathname);
  if (!scope)
    return Response.json({ error: { code: "not_found", message: "No such MCP endpoint." } }, { status: 404 });
  return handleGatewayRequest(req, { scope });
}

/** `/mcp` → every server; `/mcp/servers/<name>` → one; anything else is not an MCP endpoint. */
export function gatewayScopeOf(pathname: string): GatewayScope | undefined {
  const path = pathname.replace(/\/+$/, "");
  if (path === "/mcp") return "all";
  const match = /^\/mcp\/servers\/([^/]+)$/.exec(path);
  if (!match?.[1]) return undefined;
  try {
    return { server: decodeURIComponent(match[1]) };
  } catch {
    return undefined;
  }
}

/** The key server.mjs looks the entry up under. */
export const GATEWAY_ENTRY = "__switchboardGatewayEntry";

export function registerGatewayEntry(): void {
  (globalThis as Record<string, unknown>)[GATEWAY_ENTRY] = serveGatewayRequest;
}

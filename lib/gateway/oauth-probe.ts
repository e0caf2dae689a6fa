import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { authenticateGateway, GatewayRefusal } from "./auth";

/**
 * What Switchboard answers the OAuth discovery and registration requests (RFC 9728 / 8414 metadata,
 * OpenID configuration, `/register`) that MCP clients send after a 401 from the gateway. It is no
 * authorization server: the answer is a JSON 404 saying so, never the HTML page — clients such as
 * mcp-remote and the Inspector print this body as the reason they stopped ("Dynamic Client
 * Registration rejected (HTTP 404): …"), so it is what a Claude Desktop user reads.
 *
 * mcp-remote sends its configured headers with these requests too: when a key came along, the
 * answer starts with the gateway's own verdict on it ("The API key is not valid…", "…revoked"),
 * which is what the person needs to fix. That verdict is the one /mcp gives for the same key.
 */

export const NOT_AN_AUTHORIZATION_SERVER =
  "Switchboard is not an OAuth authorization server: its MCP gateway takes a principal's API key with the gateway scope, sent as `Authorization: Bearer <key>` or `X-API-Key: <key>` (Principals → a principal → Create key). A 401 from the gateway means the key it was sent is missing, not valid or revoked.";

export async function refuseOAuthProbe(db: Database, headers: Headers): Promise<AppError> {
  if (!headers.has("authorization") && !headers.has("x-api-key"))
    return new AppError("not_found", NOT_AN_AUTHORIZATION_SERVER);
  try {
    await authenticateGateway(db, headers);
  } catch (error) {
    if (error instanceof GatewayRefusal)
      return new AppError("not_found", `${error.message} ${NOT_AN_AUTHORIZATION_SERVER}`);
    throw error;
  }
  return new AppError(
    "not_found",
    `The key sent is a valid gateway key: send it with requests to /mcp, no sign-in is needed. ${NOT_AN_AUTHORIZATION_SERVER}`,
  );
}

import { resolveActor } from "@/lib/auth/actor";
import { requesterFromActor } from "@/lib/calls/requester";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { resolveLoopbackPrincipal } from "@/lib/gateway/settings/loopback-principal";

/**
 * Who is calling the gateway: an API key with the `gateway` scope that belongs to a principal.
 * Only keys count here — a dashboard session cookie is no credential, so a page the operator visits
 * in the browser can never drive the gateway with the operator's identity (CSRF).
 *
 * The one exception is an admin's choice for local installs: a request with no key at all may act
 * as the principal mapped to loopback requests (Settings → Gateway). A request that sends a key is
 * always judged by that key, so a bad key stays a 401 even with the mapping on.
 */

export type GatewayPrincipal = { tenantId: string; principalId: string; principalName: string };

/** A refusal before any MCP message is read: HTTP status, headers and a JSON-RPC error body. */
export class GatewayRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const challenge = (error?: string) => ({
  "WWW-Authenticate": error ? `Bearer realm="switchboard", error="${error}"` : 'Bearer realm="switchboard"',
});

export async function authenticateGateway(db: Database, headers: Headers): Promise<GatewayPrincipal> {
  if (!headers.has("authorization") && !headers.has("x-api-key")) {
    const mapped = await resolveLoopbackPrincipal(db, headers);
    if (mapped) return mapped;
    throw new GatewayRefusal(
      401,
      "Send a principal's gateway API key: `Authorization: Bearer <key>` or `X-API-Key: <key>`.",
      challenge(),
    );
  }
  let actor: Awaited<ReturnType<typeof resolveActor>>;
  try {
    actor = await resolveActor(db, headers);
  } catch (error) {
    if (isAppError(error) && error.code === "unauthenticated")
      throw new GatewayRefusal(401, error.message, challenge("invalid_token"));
    throw error;
  }
  if (actor.kind !== "api_key" || !actor.principalId || !actor.scopes.includes("gateway")) {
    // Authenticated but not usable here: 403 (RFC 6750 insufficient_scope), not "who are you".
    throw new GatewayRefusal(
      403,
      "The gateway needs an API key of a principal with the gateway scope (POST /api/v1/principals/{id}/keys).",
      challenge("insufficient_scope"),
    );
  }
  const requester = await requesterFromActor(db, actor);
  return { tenantId: actor.tenant.id, principalId: requester.id, principalName: requester.name };
}

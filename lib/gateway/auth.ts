import { resolveActor } from "@/lib/auth/actor";
import { requesterFromActor } from "@/lib/calls/requester";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { resolveLoopbackPrincipal } from "@/lib/gateway/settings/loopback-principal";
import { withSpan } from "@/lib/observability/traces";

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

/**
 * The RFC 6750 challenge. With an error it carries Switchboard's message as `error_description`,
 * the one place of a 401 that OAuth-minded clients (the MCP SDK, the Inspector) read and show.
 */
const challenge = (error?: string, description?: string) => ({
  "WWW-Authenticate": error
    ? `Bearer realm="switchboard", error="${error}"${description ? `, error_description="${challengeText(description)}"` : ""}`
    : 'Bearer realm="switchboard"',
});

const readable: Record<string, string> = {
  "—": "-",
  "–": "-",
  "→": "->",
  "…": "...",
  "‘": "'",
  "’": "'",
  "“": "'",
  "”": "'",
  '"': "'",
  "\\": "/",
};

/**
 * RFC 6750 allows only printable ASCII without `"` and `\` in error_description; a header value
 * with anything else is refused by Node's fetch. Common punctuation is spelled in ASCII, the rest
 * dropped. (Messages are Switchboard's own; a key's value never reaches one.)
 */
export function challengeText(message: string): string {
  return [...message]
    .map((char) => readable[char] ?? char)
    .join("")
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "");
}

export function authenticateGateway(db: Database, headers: Headers): Promise<GatewayPrincipal> {
  return withSpan("switchboard.authenticate", {}, async (span) => {
    const principal = await findGatewayPrincipal(db, headers);
    span?.setAttributes({
      "switchboard.workspace.id": principal.tenantId,
      "switchboard.principal.id": principal.principalId,
    });
    return principal;
  });
}

async function findGatewayPrincipal(db: Database, headers: Headers): Promise<GatewayPrincipal> {
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
      throw new GatewayRefusal(401, error.message, challenge("invalid_token", error.message));
    throw error;
  }
  if (actor.kind !== "api_key" || !actor.principalId || !actor.scopes.includes("gateway")) {
    // Authenticated but not usable here: 403 (RFC 6750 insufficient_scope), not "who are you".
    const message =
      "The gateway needs an API key of a principal with the gateway scope (POST /api/v1/principals/{id}/keys).";
    throw new GatewayRefusal(403, message, challenge("insufficient_scope", message));
  }
  const requester = await requesterFromActor(db, actor);
  return { tenantId: actor.tenant.id, principalId: requester.id, principalName: requester.name };
}

import {
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AppError } from "@/lib/errors";

/**
 * What a connection to an OAuth-protected server needs from whoever keeps its tokens
 * (lib/oauth/stored-provider.ts): the pool knows nothing of where they are kept.
 */
export interface UpstreamAuth {
  /** The SDK's provider the transport reads the access token from. */
  provider: OAuthClientProvider;
  /** Throws AuthorizationRequiredError when there is no token to try: the server waits for an admin. */
  ensureTokens(): Promise<void>;
  /** The server answered 401 to `rejected`: renew once; the token to retry with, if another is at hand. */
  renewAfterRejection(rejected: string): Promise<string | undefined>;
  /** The server answered 403 insufficient_scope. */
  needScope(scope: string | undefined, reason: string): Promise<void>;
}

/** The server needs a person to authorize (again): no token, or none the server accepts. */
export class AuthorizationRequiredError extends AppError {
  constructor(
    serverName: string,
    readonly reason: string,
  ) {
    super(
      "upstream_unavailable",
      `"${serverName}" needs authorization: ${reason} An admin must click Connect on the server's page (or run \`switchboard servers connect ${serverName}\`).`,
    );
    this.name = "AuthorizationRequiredError";
  }
}

/** The server wants a scope the token lacks: an admin can grant it (Connect asks for it). */
export class ScopeRequiredError extends AppError {
  constructor(readonly scope: string | undefined) {
    super(
      "upstream_error",
      `The server needs ${scope ? `the scope "${scope}"` : "more access"} for this, which Switchboard's authorization lacks. An admin can grant it: Connect again on the server's page.`,
    );
    this.name = "ScopeRequiredError";
  }
}

export const isScopeRequired = (error: unknown): boolean => hasErrorNamed(error, "ScopeRequiredError");

/** By name, across module copies (Next.js bundles this module once per entry). */
export const isAuthorizationRequired = (error: unknown): boolean =>
  hasErrorNamed(error, "AuthorizationRequiredError");

function hasErrorNamed(error: unknown, name: string): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current.name === name) return true;
    current = current.cause;
  }
  return false;
}

/**
 * The connection's fetch for an OAuth server: a 401 to the token we sent is renewed once and the
 * request sent again (the SDK would otherwise start a browser flow nobody can finish); a 403
 * insufficient_scope is remembered with the scope the server named. What is left goes to the SDK.
 */
export function authenticatedFetch(inner: FetchLike, auth: UpstreamAuth): FetchLike {
  return async (url, init) => {
    const response = asGlobalResponse(await inner(url, init));
    const sent = bearerOf(init?.headers);
    if (!sent) return response;
    if (response.status === 401) {
      const renewed = await auth.renewAfterRejection(sent);
      if (!renewed) return response;
      await response.body?.cancel().catch(() => {});
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${renewed}`);
      return asGlobalResponse(await inner(url, { ...init, headers }));
    }
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === "insufficient_scope") {
        // Not handed to the SDK, whose answer is a browser flow: the tokens still serve the rest.
        await response.body?.cancel().catch(() => {});
        await auth.needScope(scope, "the server answered 403 insufficient_scope.");
        throw new ScopeRequiredError(scope);
      }
    }
    return response;
  };
}

function bearerOf(headers: HeadersInit | undefined): string | undefined {
  const value = headers ? new Headers(headers).get("authorization") : null;
  return value?.toLowerCase().startsWith("bearer ") ? value.slice(7) : undefined;
}

/**
 * The pinned fetch answers with the `undici` package's Response, which is not the global one: the
 * SDK's OAuth error parsing asks `instanceof Response` and, failing, reports "[object Response]"
 * instead of the server's error. OAuth requests get a global Response around the same body.
 */
export function asGlobalResponse(response: Response): Response {
  if (response instanceof Response) return response;
  const foreign = response as Pick<Response, "body" | "status" | "statusText" | "headers">;
  return new Response(foreign.body, {
    status: foreign.status,
    statusText: foreign.statusText,
    headers: foreign.headers,
  });
}

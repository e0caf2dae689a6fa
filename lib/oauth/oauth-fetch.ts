import "server-only";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Queryable } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { checkServerPolicy, resolverWithinPolicy } from "@/lib/policy/server-policy";
import { loadServerPolicies, policyRefusalError } from "@/lib/servers/server-policy-check";
import { displayUrl } from "@/lib/upstream/connection-config";
import { createPinnedFetch } from "@/lib/upstream/transport/pinned-fetch";
import { scrubSecrets } from "@/lib/upstream/transport/stderr";
import { describeNetworkError } from "@/lib/upstream/transports";
import { asGlobalResponse } from "@/lib/upstream/upstream-auth";
import type { OAuthProblem, OAuthStep } from "./types";

/**
 * The fetch every OAuth request goes through (discovery, registration, token, refresh,
 * revocation): each URL is judged by the server's egress policies like the server's own URL, and
 * its sockets resolve through them (a name that re-resolves to 127.0.0.1 reaches nothing). It also
 * remembers which step the last request was and how it was answered, so a failure names the step
 * and the HTTP status — never a token, a code or a secret, which live in bodies it never reads.
 */
export type TracedFetch = {
  fetch: FetchLike;
  /** What failed, as a sentence for the admin: the step, the URL (no query), the status. */
  describe: (error: unknown, fallback: OAuthStep, sensitive?: readonly string[]) => OAuthProblem;
  close: () => Promise<void>;
};

const OAUTH_REQUEST_TIMEOUT_MS = 15_000;

export async function oauthFetch(db: Queryable, tenantId: string, now: () => Date): Promise<TracedFetch> {
  const policies = await loadServerPolicies(db, { tenantId });
  const pinned = createPinnedFetch(resolverWithinPolicy(policies));
  let last: { step: OAuthStep; url: string; status: number | null } | undefined;
  const fetch: FetchLike = async (url, init) => {
    const step = stepOf(String(url), init);
    last = { step, url: displayUrl(String(url)), status: null };
    const decision = await checkServerPolicy(
      policies,
      { transport: "streamable-http", url: String(url) },
      { ownerLaunch: false },
    );
    if (decision.kind === "deny") throw policyRefusalError(decision);
    // The SDK sets no time limit; a refresh holds the server's row (and PGlite) while it waits.
    const timeout = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = asGlobalResponse(await pinned.fetch(url, { ...init, signal }));
      last.status = response.status;
      return response;
    } catch (error) {
      if (timeout.aborted)
        throw new Error(
          `no answer from ${displayUrl(String(url))} within ${OAUTH_REQUEST_TIMEOUT_MS / 1000} s`,
        );
      throw new Error(describeNetworkError(error, String(url)), { cause: error });
    }
  };
  return {
    fetch,
    close: pinned.close,
    describe: (error, fallback, sensitive = []) => {
      const step = stepOfError(error) ?? last?.step ?? fallback;
      const status = last && last.step === step ? last.status : null;
      const where = last && last.step === step ? ` (${last.url}${status ? `, HTTP ${status}` : ""})` : "";
      // A hostile authorization server may echo what it was sent: the code or a token never shows.
      const reason = scrubSecrets(
        reasonOf(error),
        sensitive.filter((value) => value.length >= 4),
      );
      return {
        step,
        status,
        message: `${STEP_NAMES[step]} failed${where}: ${reason}`,
        at: now().toISOString(),
      };
    },
  };
}

const STEP_NAMES: Record<OAuthStep, string> = {
  metadata: "Discovering the authorization server (metadata)",
  registration: "Registering Switchboard as a client (registration)",
  authorization: "The authorization (authorization)",
  token: "Exchanging the authorization code (token)",
  refresh: "Refreshing the access token (refresh)",
  revocation: "Revoking the tokens (revocation)",
};

function stepOf(url: string, init: RequestInit | undefined): OAuthStep {
  if (url.includes("/.well-known/")) return "metadata";
  const body =
    typeof init?.body === "string"
      ? init.body
      : init?.body instanceof URLSearchParams
        ? init.body.toString()
        : "";
  if (body.includes("grant_type=refresh_token")) return "refresh";
  if (body.includes("grant_type=authorization_code")) return "token";
  if (body.includes("redirect_uris")) return "registration";
  if (body.includes("token_type_hint") || /revo/i.test(url)) return "revocation";
  return "metadata";
}

/** Errors the SDK throws before or without a request of the step they belong to. */
function stepOfError(error: unknown): OAuthStep | undefined {
  const message = error instanceof Error ? error.message : "";
  if (/dynamic client registration|client_id_metadata|clientMetadataUrl/i.test(message))
    return "registration";
  if (/Incompatible auth server|metadata|Protected resource .* does not match/i.test(message))
    return "metadata";
  return undefined;
}

/** The error's own words, cut short: an OAuth error's code and description, or the SDK's sentence. */
function reasonOf(error: unknown): string {
  if (isAppError(error)) return error.message;
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  if (error instanceof Error && typeof code === "string") {
    const text = error.message ? `${code}: ${error.message}` : code;
    return text.slice(0, 300);
  }
  const message = error instanceof Error ? error.message : String(error);
  // A body the server sent back may be echoed in the SDK's message: keep it short, never a page.
  return message.replace(/\s+/g, " ").slice(0, 300);
}

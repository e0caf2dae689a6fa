import "server-only";
import type { Queryable } from "@/lib/db/client";
import { checkServerPolicy, resolverWithinPolicy } from "@/lib/policy/server-policy";
import { loadServerPolicies, policyRefusalError } from "@/lib/servers/server-policy-check";
import { createPinnedFetch } from "@/lib/upstream/transport/pinned-fetch";
import { describeNetworkError } from "@/lib/upstream/transports";
import { maskUrl } from "./mask-url";

/**
 * One POST of a delivery, through the same egress machinery as a server's connection and the
 * OAuth requests (lib/oauth/oauth-fetch): the URL is judged by the workspace's policies now, and
 * the socket's address comes from a resolver that refuses what they refuse — a host that
 * re-resolves to 127.0.0.1 after the webhook was saved reaches nothing. No redirects are
 * followed; the answer's body is never read (a receiver's page is not ours to keep).
 */
export type PostOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export async function postWebhook(
  db: Queryable,
  params: { tenantId: string; url: string; headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<PostOutcome> {
  const policies = await loadServerPolicies(db, { tenantId: params.tenantId });
  const decision = await checkServerPolicy(
    policies,
    { transport: "streamable-http", url: params.url },
    { ownerLaunch: false },
  );
  if (decision.kind === "deny")
    return { ok: false, status: null, error: policyRefusalError(decision).message };
  const pinned = createPinnedFetch(resolverWithinPolicy(policies));
  const signal = AbortSignal.timeout(params.timeoutMs);
  try {
    const response = await pinned.fetch(params.url, {
      method: "POST",
      headers: params.headers,
      body: params.body,
      signal,
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `the receiver answered HTTP ${response.status}` };
  } catch (error) {
    if (signal.aborted)
      return {
        ok: false,
        status: null,
        error: `no answer from ${maskUrl(params.url)} within ${params.timeoutMs / 1000} s`,
      };
    return { ok: false, status: null, error: describeNetworkError(error, params.url).slice(0, 500) };
  } finally {
    await pinned.close();
  }
}

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/**
 * Every request on a pooled client — discovery's lists, reads, prompt gets, subscriptions, probes —
 * is bounded by its server's configured call timeout unless the caller set its own. The SDK's
 * default (60 s) knows nothing of the server: a hung tools/list held a refresh, and everything
 * queued behind it, for a minute. Each SDK client method goes through `request`, so bounding it
 * here covers callers that take the client from the pool as well as the pool's own requests.
 */
export function boundRequests(client: Client, timeoutMs: () => number): void {
  const request = client.request.bind(client);
  client.request = ((req, schema, options) =>
    request(req, schema, { ...options, timeout: options?.timeout ?? timeoutMs() })) as Client["request"];
}

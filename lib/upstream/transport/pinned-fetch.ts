import { lookup as systemLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent, fetch as undiciFetch } from "undici";
import { displayUrl } from "../connection-config";

/**
 * The fetch of one HTTP/SSE connection. Every TCP connection it opens gets its address from
 * `resolveHost`, which the egress policy gave this connection and which refuses an answer the
 * policy refuses — so a name that re-resolves to 127.0.0.1 between two requests (DNS rebinding)
 * is refused at the socket, not only at the connect-time check. The hostname stays in the URL,
 * so TLS still verifies (and sends SNI for) the name, not the address.
 *
 * Redirects are never followed here: one to another origin is an error whatever the SDK's own
 * default, and one within the origin is returned for the SDK to follow through this same fetch.
 */

export type ResolvedAddress = { address: string; family: number };
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export type PinnedFetch = { fetch: FetchLike; close: () => Promise<void> };

const systemResolve: ResolveHost = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

export function createPinnedFetch(resolveHost: ResolveHost = systemResolve): PinnedFetch {
  const agent = new Agent({ connect: { lookup: lookupThrough(resolveHost) } });
  const pinned = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(String(url));
    // net.connect skips the lookup for an IP literal: judge it here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    if (isIP(literal)) await resolveHost(literal);
    const response = await undiciFetch(target, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: "manual",
      dispatcher: agent,
    });
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      const next = location ? safeUrl(location, target) : undefined;
      if (next && next.origin !== target.origin) {
        await response.body?.cancel().catch(() => {});
        throw new RedirectRefusedError(
          `${displayUrl(target.href)} redirected to ${next.origin}: a redirect to another origin is refused (the server's URL must be the one it answers on).`,
        );
      }
    }
    return response as unknown as Response;
  };
  return {
    fetch: pinned as FetchLike,
    close: () => agent.destroy().catch(() => {}),
  };
}

export class RedirectRefusedError extends Error {
  readonly code = "REDIRECT_REFUSED";
}

function safeUrl(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** dns.lookup's shape, as net.connect calls it (with `all: true` when it races IPv4 and IPv6). */
export function lookupThrough(resolveHost: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname.replace(/^\[|\]$/g, "")).then(
      (addresses) => {
        const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
        const wanted =
          family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) {
          const error = Object.assign(new Error(`${hostname} has no IPv${family} address`), {
            code: "ENOTFOUND",
          });
          callback(error, "", 0);
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { readEnv } from "@/lib/env";

/**
 * How Switchboard resolves the host of a downstream server: the system's resolver (getaddrinfo:
 * /etc/hosts, then DNS), or the DNS servers named in SWITCHBOARD_DNS_SERVERS. The egress check
 * and every connection of an HTTP/SSE server use this one function, so the addresses the policy
 * judged and the addresses a request reaches come from the same place.
 */

export type ResolvedAddress = { address: string; family: number };
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: ResolveHost = (hostname) => {
  const servers = readEnv().dnsServers;
  return servers.length > 0
    ? resolveWith(servers, hostname)
    : lookup(hostname, { all: true, verbatim: true });
};

async function resolveWith(servers: readonly string[], hostname: string): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  if (family) return [{ address: hostname, family }];
  // DNS servers know nothing of /etc/hosts; "localhost" is this machine by definition (RFC 6761).
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) {
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  }
  const resolver = new Resolver({ timeout: 5000, tries: 2 });
  resolver.setServers([...servers]);
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  const addresses: ResolvedAddress[] = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (addresses.length > 0) return addresses;
  // Neither family answered: report the IPv4 error (ENOTFOUND, ETIMEOUT…), as lookup would.
  throw v4.status === "rejected" ? v4.reason : new Error(`${hostname} has no address`);
}

import ipaddr from "ipaddr.js";
import { z } from "zod";
import { readEnv } from "@/lib/env";
import { isLoopbackAddress, listeningAddresses, parseAddress } from "./listening";

/**
 * Who is the client of a request: the one owner of "which address" (audit entries, per-address
 * limits) and "is it this machine" (token-free first-run setup, the gateway's keyless mapping).
 *
 * The truth is the TCP peer, which only server.mjs sees: it drops any incoming header of the name
 * below and sets it from the socket (`req.socket.remoteAddress`) and from the forwarding headers
 * the client itself sent — Next.js adds X-Forwarded-* of its own later, so those cannot be judged
 * inside it. A request that did not come through server.mjs (`next start`, `next dev`) could have
 * written the header itself: there the client is unknown and never local.
 *
 * Forwarding headers are believed only from a peer listed in SWITCHBOARD_TRUSTED_PROXIES; then the
 * client is the last X-Forwarded-For (or Forwarded `for=`) hop that is not itself a trusted proxy.
 * From any other peer they only take trust away: a loopback peer that forwards is a proxy on this
 * machine relaying someone we cannot name.
 */

/** Set by server.mjs on every request (never a client's: server.mjs removes what a client sent). */
export const CONNECTION_HEADER = "x-switchboard-connection";

/** What server.mjs writes, URL-encoded JSON (server.mjs is plain JavaScript: keep the two in step). */
const connectionSchema = z.object({
  peer: z.string().nullable(),
  /** The names of the Forwarded / X-Forwarded-* headers the client sent, before Next.js added its own. */
  forwardedHeaders: z.array(z.string()),
  xForwardedFor: z.string().nullable(),
  forwarded: z.string().nullable(),
});
type Connection = z.infer<typeof connectionSchema>;

export type RequestClient = {
  /** The client's address: the socket peer, or the client a trusted proxy named; null when unknown. */
  address: string | null;
  /** Provably this machine: a loopback peer that forwards nothing, or a loopback client a trusted proxy named. */
  isLocal: boolean;
};

const UNKNOWN: RequestClient = { address: null, isLocal: false };

export function describeClient(headers: Headers): RequestClient {
  if (listeningAddresses() === null) return UNKNOWN;
  const connection = readConnection(headers.get(CONNECTION_HEADER));
  const peer = connection?.peer ? parseAddress(connection.peer) : undefined;
  if (!connection || !peer) return UNKNOWN;
  if (!isTrustedProxy(peer)) {
    const address = peer.toString();
    return { address, isLocal: isLoopbackAddress(address) && connection.forwardedHeaders.length === 0 };
  }
  return clientNamedByProxy(peer, connection);
}

/** The client address of a request, for audit entries and per-address limits; null when unknown. */
export function clientAddressOf(headers: Headers): string | null {
  return describeClient(headers).address;
}

function readConnection(value: string | null): Connection | undefined {
  if (!value) return undefined;
  try {
    const parsed = connectionSchema.safeParse(JSON.parse(decodeURIComponent(value)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hops a trusted proxy reports, nearest last: each proxy appends the peer it saw. Walking from
 * the right past our own proxies, the first other hop is the client; a hop we cannot read ends the
 * walk with "unknown", since anything left of it is whatever the client chose to write.
 */
function clientNamedByProxy(proxy: ipaddr.IPv4 | ipaddr.IPv6, connection: Connection): RequestClient {
  const hops = forwardedHops(connection);
  // A trusted proxy that names nobody relays for someone unknown: its own address, never local.
  if (hops.length === 0) return { address: proxy.toString(), isLocal: false };
  let client: ipaddr.IPv4 | ipaddr.IPv6 | undefined;
  for (const hop of hops.reverse()) {
    client = parseAddress(hop);
    if (!client) return UNKNOWN;
    if (!isTrustedProxy(client)) break;
  }
  if (!client) return UNKNOWN;
  const address = client.toString();
  return { address, isLocal: isLoopbackAddress(address) };
}

function forwardedHops(connection: Connection): string[] {
  if (connection.xForwardedFor !== null) return connection.xForwardedFor.split(",").map(stripPort);
  if (connection.forwarded === null) return [];
  // RFC 7239: `for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`.
  return connection.forwarded.split(",").flatMap((element) => {
    const pair = element.split(";").find((p) => p.trim().toLowerCase().startsWith("for="));
    return pair ? [stripPort(pair.trim().slice(4).replace(/^"|"$/g, ""))] : [];
  });
}

/** "[::1]:8080" → "::1", "203.0.113.9:4711" → "203.0.113.9"; a bare IPv6 address stays as it is. */
function stripPort(hop: string): string {
  const text = hop.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) return bracketed[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return v4WithPort?.[1] ?? text;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
let trusted: { source: readonly string[]; ranges: Range[] } | undefined;

function isTrustedProxy(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const source = readEnv().trustedProxies;
  if (trusted?.source !== source) trusted = { source, ranges: source.map(toRange) };
  // IPv4 and IPv6 ranges never match each other (peers arrive with IPv4-mapped IPv6 unwrapped).
  return trusted.ranges.some(([range, bits]) =>
    address.kind() === "ipv4"
      ? range.kind() === "ipv4" && address.match(range as ipaddr.IPv4, bits)
      : range.kind() === "ipv6" && address.match(range as ipaddr.IPv6, bits),
  );
}

/** env.ts has validated each entry: an address (a range of one) or a CIDR. */
function toRange(entry: string): Range {
  if (entry.includes("/")) return ipaddr.parseCIDR(entry);
  const parsed = ipaddr.process(entry);
  return [parsed, parsed.kind() === "ipv4" ? 32 : 128];
}

import ipaddr from "ipaddr.js";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Where this process listens, as its own sockets say: server.mjs records `server.address()` on
 * globalThis.__switchboardListening before Next.js starts. Never from HOST — `next start -H 0.0.0.0`
 * serves every interface while HOST keeps its loopback default. When Switchboard was not started
 * through server.mjs (`next start`, `next dev`) the sockets are unknown and nothing counts as
 * loopback only: no request there is trusted as this machine's.
 */

type Listening = { addresses: string[] | null };

const listening = () => processSingleton<Listening>("Listening", () => ({ addresses: null }));

/** The addresses the server's sockets are bound to; null when not started by server.mjs. */
export function listeningAddresses(): readonly string[] | null {
  return listening().addresses;
}

/** Bound to loopback addresses only, so only this machine can connect. */
export function listensOnLoopbackOnly(): boolean {
  const addresses = listeningAddresses();
  return addresses !== null && addresses.length > 0 && addresses.every(isLoopbackAddress);
}

/** What server.mjs does at start; tests call it to stand in for the server they do not run. */
export function recordListeningAddresses(addresses: string[] | null): void {
  listening().addresses = addresses;
}

/** A literal address (IPv4, IPv6, IPv4-mapped IPv6) in a loopback range; names and garbage are not. */
export function isLoopbackAddress(address: string): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && parsed.range() === "loopback";
}

/**
 * A literal IP address, IPv4-mapped IPv6 unwrapped (a dual-stack socket reports ::ffff:127.0.0.1);
 * undefined for anything else. Short IPv4 forms ("127.1") are refused: no socket or proxy writes them.
 */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = address.trim();
  if (!ipaddr.IPv6.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return undefined;
  return ipaddr.process(text);
}

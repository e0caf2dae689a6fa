import { clientAddressOf } from "@/lib/http/request-client";

/**
 * The client's address for audit entries and per-address limits: the socket peer, or the client a
 * proxy in SWITCHBOARD_TRUSTED_PROXIES named — never a header anyone can write. Null when unknown
 * (a server not started through server.mjs).
 */
export function clientAddress(headers: Headers): string | null {
  return clientAddressOf(headers);
}

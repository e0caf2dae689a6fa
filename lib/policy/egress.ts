import { isIP } from "node:net";
import { AppError } from "@/lib/errors";
import { type AddressClass, classifyAddress, describeAddress, isInAllowedAddresses } from "./address-class";
import { type ResolvedAddress, type ResolveHost, systemResolver } from "./dns-resolver";
import type { EgressPolicy } from "./egress-schema";

export type { AddressClass, ResolvedAddress, ResolveHost };
export { classifyAddress, systemResolver };

/**
 * The egress check: may this server configuration launch this program / reach this URL?
 * Runs at registration and again before every connect (DNS can change between the two), and
 * decides on every address the host resolves to, so one private record among public ones is
 * enough to refuse.
 */

export type EgressTarget = {
  transport: "stdio" | "streamable-http" | "sse";
  command?: string | null;
  url?: string | null;
};

export type EgressRule =
  | "stdio.command"
  | "stdio.allowedCommands"
  | "http.url"
  | "http.allowedSchemes"
  | "http.metadata"
  | "http.denyHosts"
  | "http.allowHosts"
  | "http.dns"
  | "http.linkLocal"
  | "http.reserved"
  | "http.loopback"
  | "http.private";

export type EgressDecision = { kind: "allow" } | { kind: "deny"; rule: EgressRule; reason: string };

// Names that reach a cloud provider's instance metadata service without a metadata address.
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data"]);

/** Who can change the rule that refused: named in every refusal so a person knows whom to ask. */
export type PolicyScope = "workspace" | "instance";
const howToAllow: Record<PolicyScope, string> = {
  workspace: "A workspace admin can allow it in Settings → Egress.",
  instance: "Only an instance owner can allow it, in Settings → Instance.",
};

export async function checkEgress(
  policy: EgressPolicy,
  target: EgressTarget,
  resolve: ResolveHost = systemResolver,
  scope: PolicyScope = "workspace",
): Promise<EgressDecision> {
  return target.transport === "stdio"
    ? checkCommand(policy, target.command)
    : checkUrl(policy, target.url, resolve, scope);
}

/** The check as a precondition: throws AppError("policy_denied") naming the rule. */
export async function assertEgressAllowed(
  policy: EgressPolicy,
  target: EgressTarget,
  resolve?: ResolveHost,
): Promise<void> {
  const decision = await checkEgress(policy, target, resolve);
  if (decision.kind === "deny") {
    throw new AppError("policy_denied", `Egress policy (${decision.rule}): ${decision.reason}`);
  }
}

function checkCommand(policy: EgressPolicy, command: string | null | undefined): EgressDecision {
  if (!command) return deny("stdio.command", "a stdio server needs a command.");
  // Exact match only: "node" allows the node found on PATH, not ./node or /tmp/x/node.
  if (policy.stdio.allowedCommands.includes(command)) return { kind: "allow" };
  return deny(
    "stdio.allowedCommands",
    `the command "${command}" is not in the allowed commands (${policy.stdio.allowedCommands.join(", ") || "none"}). An admin can add it in Settings → Egress.`,
  );
}

async function checkUrl(
  policy: EgressPolicy,
  rawUrl: string | null | undefined,
  resolve: ResolveHost,
  scope: PolicyScope,
): Promise<EgressDecision> {
  let url: URL;
  try {
    url = new URL(rawUrl ?? "");
  } catch {
    return deny("http.url", `"${rawUrl ?? ""}" is not a valid URL.`);
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (!(policy.http.allowedSchemes as string[]).includes(scheme)) {
    return deny(
      "http.allowedSchemes",
      `the scheme "${scheme}" is not allowed (allowed: ${policy.http.allowedSchemes.join(", ") || "none"}).`,
    );
  }
  // The WHATWG parser already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (METADATA_HOSTS.has(host)) {
    return deny("http.metadata", `"${host}" is a cloud metadata service; it is always refused.`);
  }
  const denied = policy.http.denyHosts.find((p) => matchesHost(p, host));
  if (denied) return deny("http.denyHosts", `"${host}" matches the denied host pattern "${denied}".`);
  if (!policy.http.allowHosts.some((p) => matchesHost(p, host))) {
    return deny("http.allowHosts", `"${host}" matches none of the allowed host patterns.`);
  }

  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      return deny("http.dns", `"${host}" could not be resolved (${code}).`);
    }
    if (addresses.length === 0) return deny("http.dns", `"${host}" resolved to no address.`);
  }
  for (const address of addresses) {
    const decision = checkAddress(policy, host, address, scope);
    if (decision.kind === "deny") return decision;
  }
  return { kind: "allow" };
}

/**
 * One resolved address against one policy: at registration, before every connect, and on every
 * DNS answer a connection gets (lib/upstream/transport/pinned-fetch.ts), so a name that
 * re-resolves elsewhere between two requests is judged again.
 */
export function checkAddress(
  policy: EgressPolicy,
  host: string,
  address: string,
  scope: PolicyScope,
): EgressDecision {
  const { class: cls, range } = describeAddress(address);
  const what = host === address ? address : `"${host}" resolves to ${address}, which`;
  // Metadata and link-local stay refused even when listed: no site needs its credentials service.
  if (cls === "metadata") {
    return deny("http.metadata", `${what} is a cloud metadata address; it is always refused.`);
  }
  if (cls === "link-local") {
    return deny("http.linkLocal", `${what} is a link-local address; it is always refused.`);
  }
  if (cls === "public" || isInAllowedAddresses(policy.http.allowAddresses, address)) return { kind: "allow" };
  switch (cls) {
    case "reserved":
      return deny(
        "http.reserved",
        `${what} is a reserved or special-purpose address (${range}). ${howToAllow[scope]}`,
      );
    case "loopback":
      return policy.http.allowLoopback
        ? { kind: "allow" }
        : deny("http.loopback", `${what} is a loopback address (this machine). ${howToAllow[scope]}`);
    case "private":
      return policy.http.allowPrivate
        ? { kind: "allow" }
        : deny("http.private", `${what} is a private-network address. ${howToAllow[scope]}`);
  }
}

function matchesHost(pattern: string, host: string): boolean {
  const p = pattern.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (p === "*") return true;
  // "*.example.com" matches any subdomain, not example.com itself.
  if (p.startsWith("*.")) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}

const deny = (rule: EgressRule, reason: string): EgressDecision => ({ kind: "deny", rule, reason });

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "@/lib/errors";
import type { EgressPolicy } from "./egress-schema";

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

export type ResolvedAddress = { address: string; family: number };
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type AddressClass = "metadata" | "link-local" | "loopback" | "private" | "reserved" | "public";

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

function checkAddress(
  policy: EgressPolicy,
  host: string,
  address: string,
  scope: PolicyScope,
): EgressDecision {
  const cls = classifyAddress(address);
  const what = host === address ? address : `"${host}" resolves to ${address}, which`;
  switch (cls) {
    case "public":
      return { kind: "allow" };
    case "metadata":
      return deny("http.metadata", `${what} is a cloud metadata address; it is always refused.`);
    case "link-local":
      return deny("http.linkLocal", `${what} is a link-local address; it is always refused.`);
    case "reserved":
      return deny("http.reserved", `${what} is a multicast or reserved address; it is always refused.`);
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

// ── address classes ─────────────────────────────────────────────────────────────────────────

type V4Range = [base: string, prefix: number, cls: AddressClass];
// Order matters: the first match wins (metadata before link-local, and so on).
const V4_RANGES: V4Range[] = [
  ["169.254.169.254", 32, "metadata"],
  ["100.100.100.200", 32, "metadata"], // Alibaba Cloud
  ["169.254.0.0", 16, "link-local"],
  ["127.0.0.0", 8, "loopback"],
  ["0.0.0.0", 8, "loopback"], // "this host": connecting to 0.0.0.0 reaches the local machine on Linux
  ["10.0.0.0", 8, "private"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["100.64.0.0", 10, "private"],
  ["224.0.0.0", 4, "reserved"],
  ["240.0.0.0", 4, "reserved"],
];

/** Classifies an IP address (v4 or v6, including v4 embedded in v6); unparseable input is "reserved". */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return classifyV4(v4);
  const v6 = parseIpv6(address);
  return v6 ? classifyV6(v6) : "reserved";
}

function classifyV4(ip: number): AddressClass {
  for (const [base, prefix, cls] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((ip & mask) >>> 0 === ((parseIpv4(base) as number) & mask) >>> 0) return cls;
  }
  return "public";
}

function classifyV6(h: number[]): AddressClass {
  const [h0 = 0, h1 = 0, h2 = 0, , , h5 = 0, h6 = 0, h7 = 0] = h;
  const zeroPrefix = (n: number) => h.slice(0, n).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => classifyV4(((hi << 16) | lo) >>> 0);
  if (zeroPrefix(8)) return "loopback"; // :: (unspecified) reaches the local host, like 0.0.0.0
  if (zeroPrefix(7) && h7 === 1) return "loopback";
  if (zeroPrefix(5) && h5 === 0xffff) return embedded(h6, h7); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroPrefix(6)) return embedded(h6, h7); // IPv4-compatible ::a.b.c.d (deprecated, still routable)
  if (h0 === 0x64 && h1 === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return embedded(h6, h7); // NAT64
  if (h0 === 0x2002) return embedded(h1, h2); // 6to4 carries an IPv4 address in bits 16–47
  if (h0 === 0xfd00 && h1 === 0x0ec2 && h.slice(2, 7).every((x) => x === 0) && h7 === 0x254) {
    return "metadata"; // AWS IMDS over IPv6
  }
  if ((h0 & 0xffc0) === 0xfe80) return "link-local";
  if ((h0 & 0xfe00) === 0xfc00 || (h0 & 0xffc0) === 0xfec0) return "private"; // ULA, old site-local
  if ((h0 & 0xff00) === 0xff00) return "reserved"; // multicast
  return "public";
}

function parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((acc, o) => ((acc << 8) | o) >>> 0, 0);
}

function parseIpv6(text: string): number[] | undefined {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, ""); // brackets, zone id
  if (!bare.includes(":")) return undefined;
  const halves = bare.split("::");
  if (halves.length > 2) return undefined;
  const toHextets = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const piece of part.split(":")) {
      if (piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
        out.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = toHextets(halves[0] ?? "");
  const tail = halves.length === 2 ? toHextets(halves[1] ?? "") : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

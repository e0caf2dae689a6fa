import ipaddr from "ipaddr.js";

/**
 * What kind of place an IP address reaches, for the egress rules. The ranges come from
 * ipaddr.js (maintained, RFC-sourced); this module only decides what each range means to us.
 * Addresses that carry an IPv4 address (IPv4-mapped, IPv4-translated, NAT64's well-known prefix,
 * 6to4, IPv4-compatible) are judged by the IPv4 address they reach. A range we have not mapped
 * (a newer ipaddr.js may name more) counts as reserved: refused until someone decides otherwise.
 */

export type AddressClass = "metadata" | "link-local" | "loopback" | "private" | "reserved" | "public";

export type ClassifiedAddress = {
  class: AddressClass;
  /** The range's name, for messages: "loopback", "multicast", "teredo", "benchmarking"… */
  range: string;
};

// Cloud instance-metadata services: always refused, whatever a policy says.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "100.100.100.200", "fd00:ec2::254"]);

const V4_CLASSES: Record<string, AddressClass> = {
  unicast: "public",
  // AS112 (DNS sinks for private reverse zones) and AMT relays are ordinary routable addresses.
  as112: "public",
  amt: "public",
  // Connecting to 0.0.0.0/8 reaches this machine on Linux, like 127.0.0.1.
  unspecified: "loopback",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "private",
  linkLocal: "link-local",
  // 192.0.0.0/24, 192.0.2.0/24, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 240.0.0.0/4, …
  reserved: "reserved",
  multicast: "reserved",
  broadcast: "reserved",
};

const V6_CLASSES: Record<string, AddressClass> = {
  unicast: "public",
  as112v6: "public",
  amt: "public",
  unspecified: "loopback",
  loopback: "loopback",
  uniqueLocal: "private",
  deprecatedSiteLocal: "private",
  linkLocal: "link-local",
  multicast: "reserved",
  // Teredo (2001::/32) tunnels to an address we cannot see; 64:ff9b:1::/48 is NAT64 for local use.
  teredo: "reserved",
  reserved: "reserved",
  discard: "reserved",
  benchmarking: "reserved",
  deprecatedOrchid: "reserved",
  orchid2: "reserved",
  droneRemoteIdProtocolEntityTags: "reserved",
  segmentRouting: "reserved",
};

/** The class of an IP address (v4 or v6); text that is not an IP address is "reserved". */
export function classifyAddress(address: string): AddressClass {
  return describeAddress(address).class;
}

/** The class of an IP address and the name of its range, for a message. */
export function describeAddress(address: string): ClassifiedAddress {
  const parsed = parseAddress(address);
  if (!parsed) return { class: "reserved", range: "not an IP address" };
  return classifyParsed(parsed);
}

function classifyParsed(ip: ipaddr.IPv4 | ipaddr.IPv6): ClassifiedAddress {
  if (METADATA_ADDRESSES.has(ip.toNormalizedString().replace(/%.*$/, "")) || isMetadataV6(ip)) {
    return { class: "metadata", range: "cloud metadata" };
  }
  if (ip.kind() === "ipv4") {
    const range = ip.range();
    return { class: V4_CLASSES[range] ?? "reserved", range };
  }
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) {
    const inner = classifyParsed(embedded);
    return { class: inner.class, range: `${inner.range}, as ${v6.range()} IPv6` };
  }
  const range = v6.range();
  return { class: V6_CLASSES[range] ?? "reserved", range };
}

function isMetadataV6(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return ip.kind() === "ipv6" && ip.toString().replace(/%.*$/, "") === "fd00:ec2::254";
}

/** The IPv4 address an IPv6 address reaches, where it carries one. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = ip.range();
  const hi6 = p[6] ?? 0;
  const lo7 = p[7] ?? 0;
  // ::ffff:a.b.c.d, ::ffff:0:a.b.c.d and 64:ff9b::a.b.c.d (NAT64's well-known /96) reach a.b.c.d.
  if (range === "ipv4Mapped" || range === "rfc6145") return v4(hi6, lo7);
  if (range === "rfc6052" && p[2] === 0) return v4(hi6, lo7);
  // 6to4 carries the IPv4 address in bits 16–47.
  if (range === "6to4") return v4(p[1] ?? 0, p[2] ?? 0);
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); not :: or ::1.
  if (p.slice(0, 6).every((x) => x === 0) && (hi6 !== 0 || lo7 > 1)) return v4(hi6, lo7);
  return undefined;
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.replace(/^\[|\]$/g, "");
  // Strict forms only: a resolver answers dotted quads or IPv6 text, never 0x7f.1.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return undefined;
  try {
    return ipaddr.parse(bare);
  } catch {
    return undefined;
  }
}

/** Whether text is an IP address or a CIDR range (`10.1.2.0/24`, `fd00::/8`), as a policy lists them. */
export function isAddressOrRange(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, "");
  if (parseAddress(bare)) return true;
  try {
    const [ip, bits] = ipaddr.parseCIDR(bare);
    return parseAddress(ip.toString()) !== undefined && bits >= 0;
  } catch {
    return false;
  }
}

/**
 * Whether an address is in one of a policy's explicitly allowed addresses or ranges. An IPv4
 * range also covers the IPv4-mapped forms of its addresses (both reach the same host).
 */
export function isInAllowedAddresses(allowed: readonly string[], address: string): boolean {
  if (allowed.length === 0) return false;
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const candidates: Array<ipaddr.IPv4 | ipaddr.IPv6> = [parsed];
  if (parsed.kind() === "ipv6") {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded) candidates.push(embedded);
  }
  return allowed.some((entry) => {
    const range = parseRange(entry);
    if (!range) return false;
    return candidates.some((ip) => ip.kind() === range[0].kind() && ip.match(range));
  });
}

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const bare = entry.replace(/^\[|\]$/g, "");
  const single = parseAddress(bare);
  if (single) return [single, single.kind() === "ipv4" ? 32 : 128];
  try {
    return ipaddr.parseCIDR(bare);
  } catch {
    return undefined;
  }
}

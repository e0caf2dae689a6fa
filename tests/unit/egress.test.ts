import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import {
  assertEgressAllowed,
  checkEgress,
  classifyAddress,
  type EgressTarget,
  type ResolveHost,
} from "@/lib/policy/egress";
import {
  defaultEgressPolicy,
  type EgressPolicy,
  type EgressPolicyInput,
  egressPolicySchema,
  isLoopbackBindAddress,
} from "@/lib/policy/egress-schema";

// A fake DNS: names map to fixed address lists; anything else fails like getaddrinfo does.
const dnsTable: Record<string, string[]> = {
  "mcp.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "api.example.com": ["93.184.215.15"],
  "example.com": ["93.184.215.16"],
  localhost: ["127.0.0.1", "::1"],
  "internal.corp": ["10.1.2.3"],
  "mixed.example.net": ["93.184.215.20", "192.168.1.20"], // one private record among public ones
  "rebind.example.net": ["169.254.169.254"],
  "v6only.example.net": ["fd12:3456::1"],
  "mapped.example.net": ["::ffff:10.0.0.1"],
  "cgnat.example.net": ["100.64.0.9"],
};
const fakeResolve: ResolveHost = async (hostname) => {
  const list = dnsTable[hostname];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const policy = (input: EgressPolicyInput = {}): EgressPolicy => egressPolicySchema.parse(input);
const http = (url: string): EgressTarget => ({ transport: "streamable-http", url });
const permissive = policy({
  http: { allowedSchemes: ["https", "http"], allowLoopback: true, allowPrivate: true },
});
const strict = policy({ http: { allowedSchemes: ["https", "http"] } });

describe("checkEgress for HTTP URLs", () => {
  const cases: Array<{ name: string; policy: EgressPolicy; url: string; rule?: string; reason?: RegExp }> = [
    { name: "a public https host", policy: strict, url: "https://mcp.example.com/mcp" },
    { name: "a public IP literal", policy: strict, url: "https://93.184.215.14/mcp" },
    {
      name: "http refused by the default schemes",
      policy: policy(),
      url: "http://mcp.example.com/mcp",
      rule: "http.allowedSchemes",
    },
    {
      name: "a non-http scheme",
      policy: permissive,
      url: "ftp://mcp.example.com/",
      rule: "http.allowedSchemes",
    },
    { name: "not a URL", policy: permissive, url: "mcp.example.com", rule: "http.url" },
    // loopback, in all its spellings
    {
      name: "127.0.0.1",
      policy: strict,
      url: "http://127.0.0.1:3001/mcp",
      rule: "http.loopback",
      reason: /127\.0\.0\.1 is a loopback address/,
    },
    {
      name: "localhost (resolved)",
      policy: strict,
      url: "http://localhost:3001/mcp",
      rule: "http.loopback",
      reason: /"localhost" resolves to 127\.0\.0\.1/,
    },
    { name: "decimal IP 2130706433", policy: strict, url: "http://2130706433/", rule: "http.loopback" },
    { name: "hex/short IP 0x7f.1", policy: strict, url: "http://0x7f.1/", rule: "http.loopback" },
    { name: "octal IP 017700000001", policy: strict, url: "http://017700000001/", rule: "http.loopback" },
    { name: "short IP 127.1", policy: strict, url: "http://127.1/", rule: "http.loopback" },
    { name: "0.0.0.0", policy: strict, url: "http://0.0.0.0:8080/", rule: "http.loopback" },
    { name: "[::1]", policy: strict, url: "http://[::1]:8080/", rule: "http.loopback" },
    { name: "[::]", policy: strict, url: "http://[::]:8080/", rule: "http.loopback" },
    {
      name: "IPv4-mapped loopback [::ffff:127.0.0.1]",
      policy: strict,
      url: "http://[::ffff:127.0.0.1]/",
      rule: "http.loopback",
    },
    { name: "loopback when allowed", policy: permissive, url: "http://127.0.0.1:3001/mcp" },
    // private ranges
    { name: "10/8", policy: strict, url: "http://10.0.0.5/", rule: "http.private" },
    { name: "172.16/12", policy: strict, url: "http://172.31.255.1/", rule: "http.private" },
    { name: "172.32 is public", policy: strict, url: "http://172.32.0.1/" },
    { name: "192.168/16", policy: strict, url: "http://192.168.1.1/", rule: "http.private" },
    { name: "100.64/10 (CGNAT)", policy: strict, url: "http://cgnat.example.net/", rule: "http.private" },
    { name: "fc00::/7", policy: strict, url: "http://[fd12:3456::1]/", rule: "http.private" },
    {
      name: "a name with only a private IPv6",
      policy: strict,
      url: "http://v6only.example.net/",
      rule: "http.private",
    },
    {
      name: "a name resolving to an IPv4-mapped private",
      policy: strict,
      url: "http://mapped.example.net/",
      rule: "http.private",
    },
    { name: "a private name", policy: strict, url: "http://internal.corp/", rule: "http.private" },
    {
      name: "one private record among public ones",
      policy: strict,
      url: "https://mixed.example.net/",
      rule: "http.private",
      reason: /192\.168\.1\.20/,
    },
    { name: "private when allowed", policy: permissive, url: "http://internal.corp/" },
    // always refused, whatever the flags say
    {
      name: "metadata IPv4",
      policy: permissive,
      url: "http://169.254.169.254/latest/meta-data/",
      rule: "http.metadata",
    },
    {
      name: "metadata as a decimal IP",
      policy: permissive,
      url: "http://2852039166/",
      rule: "http.metadata",
    },
    {
      name: "metadata IPv4-mapped",
      policy: permissive,
      url: "http://[::ffff:169.254.169.254]/",
      rule: "http.metadata",
    },
    {
      name: "metadata IPv4-mapped in hex",
      policy: permissive,
      url: "http://[::ffff:a9fe:a9fe]/",
      rule: "http.metadata",
    },
    {
      name: "metadata IPv6 (AWS)",
      policy: permissive,
      url: "http://[fd00:ec2::254]/",
      rule: "http.metadata",
    },
    {
      name: "metadata host name",
      policy: permissive,
      url: "http://metadata.google.internal/computeMetadata/v1/",
      rule: "http.metadata",
    },
    {
      name: "metadata host name with a trailing dot",
      policy: permissive,
      url: "http://metadata.google.internal./",
      rule: "http.metadata",
    },
    {
      name: "a name rebinding to metadata",
      policy: permissive,
      url: "https://rebind.example.net/",
      rule: "http.metadata",
    },
    { name: "link-local IPv4", policy: permissive, url: "http://169.254.10.1/", rule: "http.linkLocal" },
    { name: "link-local IPv6", policy: permissive, url: "http://[fe80::1]/", rule: "http.linkLocal" },
    {
      name: "6to4 carrying a link-local IPv4",
      policy: permissive,
      url: "http://[2002:a9fe:0101::]/",
      rule: "http.linkLocal",
    },
    {
      name: "NAT64 carrying metadata",
      policy: permissive,
      url: "http://[64:ff9b::a9fe:a9fe]/",
      rule: "http.metadata",
    },
    { name: "multicast", policy: permissive, url: "http://224.0.0.1/", rule: "http.reserved" },
    { name: "broadcast", policy: permissive, url: "http://255.255.255.255/", rule: "http.reserved" },
    // DNS
    {
      name: "an unresolvable name",
      policy: strict,
      url: "https://nowhere.invalid/",
      rule: "http.dns",
      reason: /ENOTFOUND/,
    },
  ];

  it.each(cases)("$name", async ({ policy: p, url, rule, reason }) => {
    const decision = await checkEgress(p, http(url), fakeResolve);
    if (!rule) {
      expect(decision).toEqual({ kind: "allow" });
      return;
    }
    expect(decision).toMatchObject({ kind: "deny", rule });
    if (reason && decision.kind === "deny") expect(decision.reason).toMatch(reason);
  });
});

describe("host rules", () => {
  const hosts = policy({
    http: { allowHosts: ["*.example.com", "93.184.215.14"], denyHosts: ["api.example.com"] },
  });
  const cases: Array<{ url: string; rule?: string }> = [
    { url: "https://mcp.example.com/mcp" },
    { url: "https://MCP.Example.COM./mcp" }, // case and trailing dot do not dodge the rules
    { url: "https://93.184.215.14/mcp" },
    { url: "https://example.com/", rule: "http.allowHosts" }, // *.example.com is subdomains only
    { url: "https://evil-example.com/", rule: "http.allowHosts" },
    { url: "https://example.com.evil.net/", rule: "http.allowHosts" },
    { url: "https://api.example.com/", rule: "http.denyHosts" },
  ];
  it.each(cases)("$url", async ({ url, rule }) => {
    const decision = await checkEgress(hosts, http(url), fakeResolve);
    expect(decision.kind === "allow" ? undefined : decision.rule).toBe(rule);
  });

  it("an empty allow list refuses every host", async () => {
    const decision = await checkEgress(
      policy({ http: { allowHosts: [] } }),
      http("https://mcp.example.com/"),
      fakeResolve,
    );
    expect(decision).toMatchObject({ kind: "deny", rule: "http.allowHosts" });
  });
});

describe("checkEgress for stdio commands", () => {
  const cases: Array<{ command: string | null; rule?: string }> = [
    { command: "node" },
    { command: "npx" },
    { command: "uvx" },
    { command: "python3" },
    { command: "docker" },
    { command: "bash", rule: "stdio.allowedCommands" },
    { command: "sh", rule: "stdio.allowedCommands" },
    { command: "/tmp/evil/node", rule: "stdio.allowedCommands" }, // a basename is not a licence for any path
    { command: "./node", rule: "stdio.allowedCommands" },
    { command: null, rule: "stdio.command" },
  ];
  it.each(cases)("$command", async ({ command, rule }) => {
    const decision = await checkEgress(policy(), { transport: "stdio", command });
    expect(decision.kind === "allow" ? undefined : decision.rule).toBe(rule);
  });

  it("an absolute path is allowed when listed exactly", async () => {
    const p = policy({ stdio: { allowedCommands: ["/opt/mcp/bin/server"] } });
    expect(await checkEgress(p, { transport: "stdio", command: "/opt/mcp/bin/server" })).toEqual({
      kind: "allow",
    });
    expect(await checkEgress(p, { transport: "stdio", command: "node" })).toMatchObject({ kind: "deny" });
  });
});

describe("assertEgressAllowed", () => {
  it("throws policy_denied with a message naming the rule", async () => {
    const error = await assertEgressAllowed(strict, http("http://10.0.0.5/mcp"), fakeResolve).catch((e) => e);
    expect(isAppError(error)).toBe(true);
    expect(error.code).toBe("policy_denied");
    expect(error.message).toMatch(
      /^Egress policy \(http\.private\): 10\.0\.0\.5 is a private-network address/,
    );
  });
});

describe("classifyAddress", () => {
  const cases: Array<[string, string]> = [
    ["8.8.8.8", "public"],
    ["127.255.255.254", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"], // IPv4-compatible
    ["0:0:0:0:0:ffff:c0a8:0101", "private"],
    ["fe80::1%eth0", "link-local"],
    ["2001:4860:4860::8888", "public"],
    ["ff02::1", "reserved"],
    ["not-an-ip", "reserved"],
    ["1:2:3:4:5:6:7:8:9", "reserved"],
  ];
  it.each(cases)("%s is %s", (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });
});

describe("the policy schema", () => {
  it("fills every default from an empty object", () => {
    expect(egressPolicySchema.parse({})).toEqual({
      stdio: { allowedCommands: ["node", "npx", "uvx", "uv", "python3", "python", "docker", "deno", "bun"] },
      http: {
        allowedSchemes: ["https"],
        allowHosts: ["*"],
        denyHosts: [],
        allowLoopback: false,
        allowPrivate: false,
        allowAddresses: [],
      },
    });
  });

  it("allows loopback and http by default only for an install listening on loopback", () => {
    expect(defaultEgressPolicy({ appListensOnLoopbackOnly: true }).http).toMatchObject({
      allowLoopback: true,
      allowedSchemes: ["https", "http"],
    });
    expect(defaultEgressPolicy({ appListensOnLoopbackOnly: false }).http).toMatchObject({
      allowLoopback: false,
      allowedSchemes: ["https"],
    });
  });

  it.each([
    ["127.0.0.1", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["192.168.1.10", false],
    [undefined, false],
  ])("bind address %s is loopback-only: %s", (host, expected) => {
    expect(isLoopbackBindAddress(host)).toBe(expected);
  });

  it.each([
    [{ stdio: { allowedCommands: ["rm -rf /"] } }, "stdio.allowedCommands.0"],
    [{ stdio: { allowedCommands: ["bin/server"] } }, "stdio.allowedCommands.0"],
    [{ http: { allowedSchemes: ["ftp"] } }, "http.allowedSchemes.0"],
    [{ http: { allowHosts: ["exa mple.com"] } }, "http.allowHosts.0"],
    [{ http: { allowHosts: ["*example.com"] } }, "http.allowHosts.0"],
    [{ http: { allowLoopback: "yes" } }, "http.allowLoopback"],
    [{ http: { unknown: true } }, "http"],
  ])("rejects %j at %s", (input, path) => {
    const result = egressPolicySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });
});

import { describe, expect, it } from "vitest";
import { classifyAddress, describeAddress, isInAllowedAddresses } from "@/lib/policy/address-class";
import { checkAddress } from "@/lib/policy/egress";
import { egressPolicySchema } from "@/lib/policy/egress-schema";
import { instancePolicySchema } from "@/lib/policy/instance-policy-schema";
import { resolverWithinPolicy, type ServerPolicies } from "@/lib/policy/server-policy";
import { lookupThrough } from "@/lib/upstream/transport/pinned-fetch";

describe("address classes (ipaddr.js ranges)", () => {
  const cases: Array<[string, string]> = [
    ["8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"],
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["0.0.0.0", "loopback"],
    ["::", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fd00::2", "private"],
    ["169.254.1.1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    // Special-purpose ranges the hand-written list missed.
    ["198.18.0.1", "reserved"],
    ["198.19.255.254", "reserved"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.2", "reserved"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["224.0.0.251", "reserved"],
    ["ff02::1", "reserved"],
    ["64:ff9b:1::a00:1", "reserved"],
    ["2001::1", "reserved"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
    // IPv6 forms of IPv4 addresses are judged by the IPv4 address they reach.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:198.18.0.1", "reserved"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:0a00:0001::1", "private"],
    ["::127.0.0.1", "loopback"],
    // Not an address: refused.
    ["0x7f.1", "reserved"],
    ["2130706433", "reserved"],
    ["rebind.test", "reserved"],
  ];
  it.each(cases)("%s is %s", (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it("names the range, for messages", () => {
    expect(describeAddress("127.0.0.1").range).toBe("loopback");
    expect(describeAddress("224.0.0.1").range).toBe("multicast");
    expect(describeAddress("2001::1").range).toBe("teredo");
    expect(describeAddress("::ffff:127.0.0.1").range).toMatch(/^loopback, as ipv4Mapped IPv6$/);
  });
});

describe("explicitly allowed addresses", () => {
  it("matches single addresses and CIDR ranges, IPv4 ranges in their IPv4-mapped form too", () => {
    expect(isInAllowedAddresses(["127.0.0.2"], "127.0.0.2")).toBe(true);
    expect(isInAllowedAddresses(["127.0.0.2"], "127.0.0.1")).toBe(false);
    expect(isInAllowedAddresses(["10.1.2.0/24"], "10.1.2.200")).toBe(true);
    expect(isInAllowedAddresses(["10.1.2.0/24"], "10.1.3.1")).toBe(false);
    expect(isInAllowedAddresses(["10.1.2.0/24"], "::ffff:10.1.2.7")).toBe(true);
    expect(isInAllowedAddresses(["64:ff9b:1::/48"], "64:ff9b:1::a00:1")).toBe(true);
    expect(isInAllowedAddresses([], "8.8.8.8")).toBe(false);
  });

  it("are validated by the schema", () => {
    expect(
      egressPolicySchema.safeParse({ http: { allowAddresses: ["198.18.0.0/15", "fd00::1"] } }).success,
    ).toBe(true);
    for (const bad of ["example.com", "10.0.0.0/33", "0x7f.1", "1.2.3"]) {
      expect(egressPolicySchema.safeParse({ http: { allowAddresses: [bad] } }).success, bad).toBe(false);
    }
  });

  it("open a reserved or loopback address, never a metadata or link-local one", () => {
    const policy = egressPolicySchema.parse({
      http: { allowAddresses: ["198.18.0.0/15", "127.0.0.2", "169.254.169.254", "169.254.0.0/16"] },
    });
    expect(checkAddress(policy, "bench", "198.18.3.4", "workspace")).toEqual({ kind: "allow" });
    expect(checkAddress(policy, "x", "127.0.0.2", "workspace")).toEqual({ kind: "allow" });
    expect(checkAddress(policy, "x", "127.0.0.1", "workspace")).toMatchObject({ rule: "http.loopback" });
    expect(checkAddress(policy, "x", "169.254.169.254", "workspace")).toMatchObject({
      rule: "http.metadata",
    });
    expect(checkAddress(policy, "x", "169.254.1.1", "workspace")).toMatchObject({ rule: "http.linkLocal" });
    expect(checkAddress(egressPolicySchema.parse({}), "x", "240.0.0.1", "workspace")).toMatchObject({
      rule: "http.reserved",
    });
  });
});

describe("the resolver a connection's requests go through", () => {
  const policies = (workspace: object, instance: object = {}): ServerPolicies => ({
    instance: instancePolicySchema.parse({ http: { allowLoopback: true, allowPrivate: true, ...instance } }),
    workspace: egressPolicySchema.parse({ http: { allowedSchemes: ["http"], ...workspace } }),
  });
  const answers = (table: Record<string, string[]>) => async (host: string) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("passes answers the policies allow", async () => {
    const resolve = resolverWithinPolicy(policies({}), answers({ "api.test": ["8.8.8.8"] }));
    expect(await resolve("api.test")).toEqual([{ address: "8.8.8.8", family: 4 }]);
  });

  it("refuses a rebinding answer, naming the name, the address and the class", async () => {
    const resolve = resolverWithinPolicy(
      policies({ allowAddresses: ["127.0.0.2"] }),
      answers({ "rebind.test": ["127.0.0.1"] }),
    );
    const error = await resolve("rebind.test").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "EGRESS_REFUSED" });
    expect((error as Error).message).toMatch(
      /^rebind\.test resolved to 127\.0\.0\.1, refused by egress \(loopback\): the workspace's egress policy does not allow it \(http\.loopback\)/,
    );
  });

  it("refuses the whole answer when one address of several is refused", async () => {
    const resolve = resolverWithinPolicy(policies({}), answers({ "mixed.test": ["8.8.8.8", "10.0.0.1"] }));
    await expect(resolve("mixed.test")).rejects.toThrow(
      /mixed\.test resolved to 10\.0\.0\.1.*\(http\.private\)/,
    );
  });

  it("applies the instance floor even where the workspace would allow", async () => {
    const resolve = resolverWithinPolicy(
      policies({ allowLoopback: true }, { allowLoopback: false }),
      answers({ "rebind.test": ["::ffff:127.0.0.1"] }),
    );
    await expect(resolve("rebind.test")).rejects.toThrow(
      /the instance policy does not allow it \(http\.loopback\)/,
    );
  });

  it("answers net.connect's lookup in both of its shapes, and passes a refusal on as the error", async () => {
    const lookup = lookupThrough(async (host) => {
      if (host === "bad.test") throw Object.assign(new Error("refused"), { code: "EGRESS_REFUSED" });
      return [
        { address: "8.8.8.8", family: 4 },
        { address: "2001:4860:4860::8888", family: 6 },
      ];
    });
    const call = (host: string, options: object) =>
      new Promise<unknown[]>((resolve) => lookup(host, options, (...args: unknown[]) => resolve(args)));
    expect(await call("ok.test", {})).toEqual([null, "8.8.8.8", 4]);
    expect(await call("ok.test", { family: 6 })).toEqual([null, "2001:4860:4860::8888", 6]);
    expect(await call("ok.test", { all: true })).toEqual([
      null,
      [
        { address: "8.8.8.8", family: 4 },
        { address: "2001:4860:4860::8888", family: 6 },
      ],
    ]);
    const [error] = await call("bad.test", { all: true });
    expect(error).toMatchObject({ code: "EGRESS_REFUSED" });
  });
});

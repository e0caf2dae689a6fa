import { afterEach, describe, expect, it, vi } from "vitest";
import { readEnv } from "@/lib/env";
import { listensOnLoopbackOnly, recordListeningAddresses } from "@/lib/http/listening";
import { describeClient } from "@/lib/http/request-client";
import { headersFrom } from "../fixtures/connection";

afterEach(() => {
  recordListeningAddresses(["127.0.0.1"]);
  vi.unstubAllEnvs();
});

describe("where Switchboard listens: its sockets, never HOST", () => {
  it.each([
    [["127.0.0.1"], true],
    [["::1"], true],
    [["127.0.0.1", "::1"], true],
    [["0.0.0.0"], false],
    [["::"], false],
    [["192.0.2.2"], false],
    [["127.0.0.1", "192.0.2.2"], false],
    [[], false],
    [null, false],
  ])("bound to %j: loopback only = %s", (addresses, expected) => {
    vi.stubEnv("HOST", "127.0.0.1");
    recordListeningAddresses(addresses);
    expect(listensOnLoopbackOnly()).toBe(expected);
    expect(readEnv().listensOnLoopbackOnly).toBe(expected);
  });
});

describe("who the client is", () => {
  it.each([
    ["a loopback peer", headersFrom("127.0.0.1"), { address: "127.0.0.1", isLocal: true }],
    ["IPv6 loopback", headersFrom("::1"), { address: "::1", isLocal: true }],
    ["IPv4-mapped loopback", headersFrom("::ffff:127.0.0.1"), { address: "127.0.0.1", isLocal: true }],
    ["a peer elsewhere", headersFrom("192.0.2.2"), { address: "192.0.2.2", isLocal: false }],
    [
      "a peer elsewhere claiming loopback",
      headersFrom("192.0.2.2", { "X-Forwarded-For": "127.0.0.1" }),
      { address: "192.0.2.2", isLocal: false },
    ],
    [
      "a loopback peer that forwards (an untrusted proxy on this machine)",
      headersFrom("127.0.0.1", { "X-Forwarded-For": "6.6.6.6" }),
      { address: "127.0.0.1", isLocal: false },
    ],
    [
      "a loopback peer with X-Forwarded-Proto only",
      headersFrom("127.0.0.1", { "X-Forwarded-Proto": "https" }),
      { address: "127.0.0.1", isLocal: false },
    ],
    [
      "no word from server.mjs",
      new Headers({ "x-forwarded-for": "127.0.0.1" }),
      { address: null, isLocal: false },
    ],
    ["a garbled word", new Headers({ "x-switchboard-connection": "%7B" }), { address: null, isLocal: false }],
  ])("%s", (_, headers, expected) => {
    expect(describeClient(headers)).toEqual(expected);
  });

  it("knows nobody when the sockets are unknown (not started by server.mjs)", () => {
    recordListeningAddresses(null);
    expect(describeClient(headersFrom("127.0.0.1"))).toEqual({ address: null, isLocal: false });
  });

  it.each([
    ["a local client", { "X-Forwarded-For": "127.0.0.1" }, { address: "127.0.0.1", isLocal: true }],
    ["a remote client", { "X-Forwarded-For": "203.0.113.9" }, { address: "203.0.113.9", isLocal: false }],
    [
      "a remote client that wrote loopback in front",
      { "X-Forwarded-For": "127.0.0.1, 203.0.113.9" },
      { address: "203.0.113.9", isLocal: false },
    ],
    [
      "a chain of our own proxies",
      { "X-Forwarded-For": "203.0.113.9, 10.0.0.4, 10.0.0.5" },
      { address: "203.0.113.9", isLocal: false },
    ],
    [
      "RFC 7239",
      { Forwarded: 'for="[2001:db8::1]:4711";proto=https' },
      { address: "2001:db8::1", isLocal: false },
    ],
    [
      "a port on the hop",
      { "X-Forwarded-For": "203.0.113.9:5000" },
      { address: "203.0.113.9", isLocal: false },
    ],
    ["garbage", { "X-Forwarded-For": "unknown" }, { address: null, isLocal: false }],
    ["nobody", {}, { address: "127.0.0.1", isLocal: false }],
  ])("from a trusted proxy, %s", (_, sent, expected) => {
    vi.stubEnv("SWITCHBOARD_TRUSTED_PROXIES", "127.0.0.1,10.0.0.0/8");
    expect(describeClient(headersFrom("127.0.0.1", sent))).toEqual(expected);
  });

  it("refuses a trusted proxy list it cannot read, at start", () => {
    vi.stubEnv("SWITCHBOARD_TRUSTED_PROXIES", "127.0.0.1, my-proxy");
    expect(() => readEnv()).toThrow(
      /SWITCHBOARD_TRUSTED_PROXIES: "my-proxy" is neither an IP address nor a CIDR/,
    );
  });
});

import { describe, expect, it } from "vitest";
import {
  type ConnectionConfig,
  connectionIdentity,
  createValueResolver,
  displayUrl,
  formatCommandLine,
  resolveConnection,
} from "@/lib/upstream/connection-config";

const base: ConnectionConfig = {
  id: "s1",
  tenantId: "t1",
  name: "github",
  transport: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-github"],
  cwd: null,
  env: {},
  url: null,
  headers: {},
  auth: { type: "none" },
  enabled: true,
  connectTimeoutMs: 10_000,
  callTimeoutMs: 30_000,
  healthIntervalSeconds: 60,
  programPath: null,
  launchApprovedBy: null,
};
const http = (overrides: Partial<ConnectionConfig>): ConnectionConfig => ({
  ...base,
  transport: "streamable-http",
  command: null,
  args: [],
  url: "https://mcp.example.com/mcp",
  ...overrides,
});

const secrets: Record<string, Record<string, string>> = {
  t1: { "gh-token": "ghp_secret_value_1", "api-key": "key_value_2" },
};
const resolve = createValueResolver({
  readSecret: async ({ tenantId, name }) => secrets[tenantId]?.[name],
  env: { HOME: "/home/op", EMPTY: "" },
});

describe("resolveConnection", () => {
  it("resolves literals, secrets and environment references for stdio", async () => {
    const resolved = await resolveConnection(
      { ...base, env: { GITHUB_TOKEN: { secret: "gh-token" }, HOME_DIR: { fromEnv: "HOME" }, LOG: "debug" } },
      resolve,
    );
    expect(resolved.env).toEqual({ GITHUB_TOKEN: "ghp_secret_value_1", HOME_DIR: "/home/op", LOG: "debug" });
    expect(resolved.secrets.sort()).toEqual(["/home/op", "ghp_secret_value_1"]);
    expect(resolved.headers).toEqual({});
  });

  it.each([
    [{ type: "bearer", credential: { secret: "gh-token" } }, { Authorization: "Bearer ghp_secret_value_1" }],
    [
      { type: "api_key", headerName: "X-API-Key", credential: { secret: "api-key" } },
      { "X-API-Key": "key_value_2" },
    ],
    [{ type: "custom_header", headerName: "X-Token", credential: "literal" }, { "X-Token": "literal" }],
    [{ type: "none" }, {}],
  ] as const)("HTTP auth %j becomes headers", async (auth, expected) => {
    const resolved = await resolveConnection(http({ auth, headers: { "X-Org": "acme" } }), resolve);
    expect(resolved.headers).toEqual({ "X-Org": "acme", ...expected });
  });

  it("names every missing reference in one error", async () => {
    const config = {
      ...base,
      env: { A: { secret: "nope" }, B: { fromEnv: "NOT_SET_ANYWHERE" }, C: { fromEnv: "EMPTY" } },
    };
    await expect(resolveConnection(config, resolve)).rejects.toThrow(
      'Cannot connect to "github": secret nope is not set; environment variable NOT_SET_ANYWHERE is not set; environment variable EMPTY is not set.',
    );
  });

  it("reads secrets in the server's own tenant only", async () => {
    await expect(
      resolveConnection({ ...base, tenantId: "t2", env: { T: { secret: "gh-token" } } }, resolve),
    ).rejects.toThrow("secret gh-token is not set");
  });

  it("puts no credential header on an OAuth server: its transport sends the access token", async () => {
    const resolved = await resolveConnection(http({ auth: { type: "oauth" } }), resolve);
    expect(resolved.headers).not.toHaveProperty("Authorization");
  });
});

describe("formatCommandLine", () => {
  it("shows references as [redacted], quotes what needs quoting, scrubs resolved values", () => {
    const config = {
      ...base,
      command: "node",
      args: ["server.js", "--name", "my server", "--token=ghp_secret_value_1"],
      env: { GITHUB_TOKEN: { secret: "gh-token" }, LOG: "debug" },
    };
    expect(formatCommandLine(config, ["ghp_secret_value_1"])).toBe(
      "GITHUB_TOKEN=[redacted] LOG=debug node server.js --name 'my server' --token=[redacted]",
    );
  });
});

describe("displayUrl", () => {
  it.each([
    ["https://mcp.example.com/mcp?token=abc#frag", "https://mcp.example.com/mcp"],
    ["http://127.0.0.1:3001/sse", "http://127.0.0.1:3001/sse"],
    ["not a url", "(invalid URL)"],
    [null, "(no URL)"],
  ])("%s → %s", (input, expected) => {
    expect(displayUrl(input)).toBe(expected);
  });
});

describe("connectionIdentity", () => {
  it("changes with what it takes to reach the server, not with the health interval", () => {
    expect(connectionIdentity({ ...base, healthIntervalSeconds: 5 })).toBe(connectionIdentity(base));
    expect(connectionIdentity({ ...base, callTimeoutMs: 1 })).toBe(connectionIdentity(base));
    expect(connectionIdentity({ ...base, args: ["other"] })).not.toBe(connectionIdentity(base));
    expect(connectionIdentity({ ...base, env: { A: "1" } })).not.toBe(connectionIdentity(base));
  });
});

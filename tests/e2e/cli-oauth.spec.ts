import {
  authorizeHeadless,
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from "../fixtures/mcp-servers/oauth-protected-server";
import { type CliOptions, cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { expect, test } from "./fixtures";

/*
 * `switchboard servers connect / auth-status / disconnect` against a real authorization server:
 * oidc-provider in front of an MCP server (tests/fixtures/mcp-servers/oauth-protected-server.ts),
 * in this worker's process on 127.0.0.1 — which the e2e server's default policies let servers
 * reach, since it listens on loopback only. The browser part of a sign-in (login and consent at
 * the authorization server) is walked headlessly; its redirect lands on the e2e server's
 * /oauth/callback like a browser's would.
 */

let oauth: OAuthProtectedServer;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], options: CliOptions = {}) => runCli(args, env, options);

test.beforeAll(async () => {
  oauth = await startOAuthProtectedServer();
});
test.afterAll(async () => {
  await oauth?.close();
});
test.beforeEach(({ baseURL }) => {
  env = cliEnv(baseURL as string, makeConfigHome());
});

test("servers connect prints the authorization URL; after the sign-in auth-status shows it connected; disconnect revokes", async ({
  api,
  baseURL,
}) => {
  const name = "cli-oauth";
  const registered = await api.post("/api/v1/servers", {
    data: { name, transport: "streamable-http", url: oauth.mcpUrl, auth: { type: "oauth" } },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  try {
    // Without a token the server waits for an admin's Connect: no retries.
    await expect
      .poll(async () => JSON.parse((await cli(["servers", "show", name, "--json"])).stdout).status)
      .toBe("needs-authorization");
    const before = await cli(["servers", "auth-status", name]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/Status\s+not connected/);
    expect(before.stdout).toContain(`Connect it: switchboard servers connect ${name}`);

    const connect = await cli(["servers", "connect", name]);
    expect(connect.code, connect.stderr).toBe(0);
    expect(connect.stdout).toContain("Open this URL in a browser where you are signed in to Switchboard:");
    const printed = connect.stdout.trim().split("\n").at(-1) ?? "";
    const metadata = (await (await fetch(`${oauth.issuer}/.well-known/openid-configuration`)).json()) as {
      authorization_endpoint: string;
    };
    expect(printed.startsWith(`${metadata.authorization_endpoint}?`), printed).toBe(true);
    const authorizationUrl = new URL(printed);
    const query = authorizationUrl.searchParams;
    expect(query.get("response_type")).toBe("code");
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(query.get("state")).toMatch(/^[\w-]{40,}$/);
    expect(query.get("resource")).toBe(oauth.mcpUrl);
    expect(query.get("redirect_uri")).toBe(`${baseURL}/oauth/callback`);
    // Switchboard registered itself (RFC 7591: the e2e server's public URL is http, not https).
    expect(oauth.counts().registrations).toBe(1);

    // What a browser does: sign in and consent at the authorization server, then follow its
    // redirect to Switchboard, which takes the code and sends the browser to the server's page.
    const callback = await authorizeHeadless(authorizationUrl.href);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${baseURL}/oauth/callback`);
    const landed = await api.get(`${callback.pathname}${callback.search}`, { maxRedirects: 0 });
    expect(landed.status(), await landed.text()).toBe(303);
    expect(landed.headers().location).toBe(`${baseURL}/servers/${name}?oauth=connected`);

    const after = await cli(["servers", "auth-status", name]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/Status\s+connected/);
    expect(after.stdout).toMatch(/Registration\s+dynamic registration/);
    expect(after.stdout).toMatch(new RegExp(`Issuer\\s+${oauth.issuer.replace(/\./g, "\\.")}`));
    expect(after.stdout).toMatch(/Scopes\s+mcp:tools/);
    expect(after.stdout).toMatch(/Connected\s+.+ by bootstrap/);
    expect(after.stdout).not.toContain("Connect it:");
    const json = await cli(["servers", "auth-status", name, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "connected",
      registration: "dynamic",
      issuer: oauth.issuer,
      scopes: ["mcp:tools"],
      neededScope: null,
      connectedBy: "bootstrap",
      problem: null,
    });
    // Every process reconnects the server with the new tokens.
    await expect
      .poll(async () => JSON.parse((await cli(["servers", "show", name, "--json"])).stdout).status)
      .toBe("ready");

    const disconnect = await cli(["servers", "disconnect", name, "--yes"]);
    expect(disconnect.code, disconnect.stderr).toBe(0);
    expect(disconnect.stdout).toContain(
      `Disconnected ${name}: its tokens are deleted and revoked at the server.`,
    );
    // RFC 7009: the refresh token, then the access token.
    expect(oauth.counts().revocations).toBe(2);
    const gone = await cli(["servers", "auth-status", name, "--json"]);
    expect(JSON.parse(gone.stdout)).toMatchObject({ status: "not_connected", connectedAt: null });
  } finally {
    await api.delete(`/api/v1/servers/${name}`);
  }
});

test("servers connect, auth-status and disconnect refuse a server that does not use OAuth", async ({
  api,
}) => {
  const name = "cli-not-oauth";
  const registered = await api.post("/api/v1/servers", {
    data: { name, transport: "streamable-http", url: "http://127.0.0.1:9/mcp", enabled: false },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  try {
    for (const args of [
      ["servers", "connect", name],
      ["servers", "auth-status", name],
      ["servers", "disconnect", name, "--yes"],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`"${name}" does not use OAuth.`);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  } finally {
    await api.delete(`/api/v1/servers/${name}`);
  }
});

test("servers connect names the step that failed when the server has no OAuth metadata", async ({ api }) => {
  const name = "cli-oauth-nowhere";
  const registered = await api.post("/api/v1/servers", {
    data: {
      name,
      transport: "streamable-http",
      url: "http://127.0.0.1:9/mcp",
      auth: { type: "oauth" },
      enabled: false,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  try {
    const result = await cli(["servers", "connect", name]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: .*metadata/i);
    const status = JSON.parse((await cli(["servers", "auth-status", name, "--json"])).stdout);
    expect(status).toMatchObject({ status: "not_connected", problem: { step: "metadata" } });
  } finally {
    await api.delete(`/api/v1/servers/${name}`);
  }
});

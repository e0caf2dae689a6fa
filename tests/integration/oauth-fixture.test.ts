// The OAuth-protected MCP fixture, driven as an MCP client drives a hosted server: the SDK's own
// client auth (discovery, registration, PKCE, resource indicators, refresh) and transport. If these
// pass, a failure in Switchboard's OAuth client is Switchboard's, not the fixture's.
import { randomUUID } from "node:crypto";
import {
  auth,
  discoverAuthorizationServerMetadata,
  type OAuthClientProvider,
  refreshAuthorization,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterEach, describe, expect, test } from "vitest";
import { eventually } from "../fixtures/eventually";
import {
  authorizeHeadless,
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from "../fixtures/mcp-servers/oauth-protected-server";

const redirectUrl = "http://127.0.0.1:9/oauth/callback";

/** Keeps what the SDK hands it, unchanged, in memory; "redirecting" only records the URL. */
class MemoryClientProvider implements OAuthClientProvider {
  readonly redirectUrl = redirectUrl;
  readonly clientMetadata = {
    client_name: "oauth-fixture test",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  readonly expectedState = randomUUID();
  authorizationUrl?: URL;
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  state = () => this.expectedState;
  clientInformation = () => this.information;
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens = () => this.saved;
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier = () => this.verifier;
  invalidateCredentials = (scope: string) => {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.information = undefined;
  };
}

let server: OAuthProtectedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Registers, walks the login and consent pages, and exchanges the code, as an MCP client does. */
async function signIn(at: OAuthProtectedServer, scope?: string): Promise<MemoryClientProvider> {
  const provider = new MemoryClientProvider();
  expect(await auth(provider, { serverUrl: at.mcpUrl, scope })).toBe("REDIRECT");
  if (!provider.authorizationUrl) throw new Error("auth() returned REDIRECT without an authorization URL");
  expect(provider.authorizationUrl.searchParams.get("resource")).toBe(at.mcpUrl);
  const callback = await authorizeHeadless(provider.authorizationUrl.href);
  expect(`${callback.origin}${callback.pathname}`).toBe(redirectUrl);
  expect(callback.searchParams.get("state")).toBe(provider.expectedState);
  expect(callback.searchParams.get("iss")).toBe(at.issuer);
  const authorizationCode = callback.searchParams.get("code") ?? undefined;
  expect(await auth(provider, { serverUrl: at.mcpUrl, authorizationCode })).toBe("AUTHORIZED");
  return provider;
}

async function connect(at: OAuthProtectedServer, provider: MemoryClientProvider): Promise<Client> {
  const client = new Client({ name: "oauth-fixture-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(at.mcpUrl), { authProvider: provider }));
  return client;
}

async function whoami(client: Client): Promise<{ subject: string; clientId: string; scopes: string[] }> {
  const result = await client.callTool({ name: "whoami" });
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first?.text ?? "null");
}

/** A tools/list POST with this bearer token (or none), for the status and the challenge. */
function postMcp(at: OAuthProtectedServer, accessToken?: string): Promise<Response> {
  const authorization: Record<string, string> = accessToken ? { authorization: `Bearer ${accessToken}` } : {};
  return fetch(at.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...authorization,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

describe("the OAuth-protected MCP fixture", () => {
  test("a client registers, signs in through the server's own pages, and calls tools as the signed-in person", async () => {
    server = await startOAuthProtectedServer();
    const anonymous = await postMcp(server);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain(
      `resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", server.mcpUrl).href}"`,
    );
    const metadata = await discoverAuthorizationServerMetadata(server.issuer);
    expect(metadata).toMatchObject({
      code_challenge_methods_supported: ["S256"],
      registration_endpoint: `${server.issuer}/reg`,
      revocation_endpoint: `${server.issuer}/token/revocation`,
    });

    const provider = await signIn(server);
    const client = await connect(server, provider);
    const clientId = provider.information?.client_id;
    expect(await whoami(client)).toEqual({ subject: "alice", clientId, scopes: ["mcp:tools"] });
    expect(await client.callTool({ name: "echo", arguments: { text: "hello" } })).toMatchObject({
      content: [{ type: "text", text: "hello" }],
    });
    await client.close();
    // RFC 7009: a public client revokes its own refresh token with just its client_id.
    const token = provider.saved?.refresh_token ?? "";
    const revocation = { method: "POST", body: new URLSearchParams({ token, client_id: clientId ?? "" }) };
    expect((await fetch(`${server.issuer}/token/revocation`, revocation)).status).toBe(200);
    const counts = {
      registrations: 1,
      authorizationCode: 1,
      refreshToken: 0,
      revocations: 1,
      mcpUnauthorized: 1,
    };
    expect(server.counts()).toMatchObject(counts);
  });

  test("registration accepts public and confidential clients with loopback http redirect URIs", async () => {
    server = await startOAuthProtectedServer();
    const metadata = await discoverAuthorizationServerMetadata(server.issuer);
    for (const [host, method] of [
      ["127.0.0.1", "none"],
      ["localhost", "client_secret_basic"],
    ]) {
      const redirect_uris = [`http://${host}:43123/oauth/callback`];
      const response = await fetch(metadata?.registration_endpoint ?? "", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris, token_endpoint_auth_method: method }),
      });
      expect(response.status).toBe(201);
      const registered = await response.json();
      expect(registered).toMatchObject({ redirect_uris, token_endpoint_auth_method: method });
      expect(Boolean(registered.client_secret)).toBe(method !== "none");
    }
  });

  test("once the access token has expired, the next call still succeeds because the transport refreshed", async () => {
    const at = await startOAuthProtectedServer({ accessTokenTtlSeconds: 2 });
    server = at;
    const provider = await signIn(at);
    const client = await connect(at, provider);
    const first = provider.saved;
    const isExpired = async () =>
      (await postMcp(at, first?.access_token)).status === 401 ? true : undefined;
    await eventually(isExpired, "the first access token to expire");
    expect((await whoami(client)).subject).toBe("alice");
    expect(server.counts().refreshToken).toBeGreaterThanOrEqual(1);
    // Rotation: the refresh answered a new refresh token as well as a new access token.
    expect(provider.saved?.access_token).not.toBe(first?.access_token);
    expect(provider.saved?.refresh_token).not.toBe(first?.refresh_token);
    await client.close();
  });

  test("revokeAll ends the grant: the access token gets 401 and the refresh token invalid_grant", async () => {
    server = await startOAuthProtectedServer();
    const provider = await signIn(server);
    const client = await connect(server, provider);
    expect((await whoami(client)).subject).toBe("alice");
    const before = provider.saved;
    await server.revokeAll();

    expect((await postMcp(server, before?.access_token)).status).toBe(401);
    const metadata = await discoverAuthorizationServerMetadata(server.issuer);
    await expect(
      refreshAuthorization(server.issuer, {
        metadata,
        clientInformation: provider.information ?? { client_id: "" },
        refreshToken: before?.refresh_token ?? "",
        resource: new URL(server.mcpUrl),
      }),
    ).rejects.toBeInstanceOf(InvalidGrantError);
    // The transport tries the refresh token too, then falls back to a new authorization.
    provider.authorizationUrl = undefined;
    await expect(whoami(client)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
    expect(server.counts().refreshToken).toBe(2);
    await client.close();
  });

  test("a token without a required scope gets 403 insufficient_scope naming the scope", async () => {
    server = await startOAuthProtectedServer({
      scopes: ["mcp:tools", "mcp:admin"],
      requiredScopes: ["mcp:admin"],
    });
    const provider = await signIn(server, "mcp:tools");
    const response = await postMcp(server, provider.saved?.access_token);
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate");
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp:admin"');
  });
});

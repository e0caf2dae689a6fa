import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpServers } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { DatabaseHandle } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getLimitsPolicy, putLimitsPolicy } from "@/lib/limits/limits-policy";
import { putSecret } from "@/lib/secrets/secrets";
import { deleteServer, getServer, listServers, registerServer, updateServer } from "@/lib/servers/registry";
import { ensureDefaultTenant } from "@/lib/tenancy/default-tenant";
import { drivers, openTestDatabase } from "../fixtures/databases";

const stdioServer = {
  name: "local",
  transport: "stdio",
  command: "node",
  args: ["server.js"],
  env: { LOG_LEVEL: "info", TOKEN: { secret: "gh-token" } },
};
const httpServer = {
  name: "remote",
  transport: "streamable-http",
  url: "https://mcp.example.com/mcp",
  headers: { "X-Org": "acme" },
  auth: { type: "bearer", credential: { secret: "remote-token" } },
};

async function expectAppError(promise: Promise<unknown>, code: AppError["code"]): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

describe.each(drivers)("server registry on %s", (driver) => {
  let handle: DatabaseHandle;
  let tenantId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    tenantId = (await ensureDefaultTenant(handle.db)).tenant.id;
  });
  afterAll(() => handle?.close());

  it("registers stdio and HTTP servers and lists them by name with their targets", async () => {
    await registerServer(handle.db, { authority: SYSTEM_AUTHORITY, tenantId, input: stdioServer });
    await registerServer(handle.db, { authority: SYSTEM_AUTHORITY, tenantId, input: httpServer });
    const servers = await listServers(handle.db, { tenantId });
    expect(servers.map((s) => [s.name, s.transport, s.target])).toEqual([
      ["local", "stdio", "node server.js"],
      ["remote", "streamable-http", "https://mcp.example.com/mcp"],
    ]);
    expect(servers[0]).toMatchObject({ enabled: true, connectTimeoutMs: 10_000, status: "unknown" });
  });

  it("shows secret references as set or unset, never a value", async () => {
    await putSecret(handle.db, { tenantId, name: "gh-token", value: "canary-value-123", by: null });
    const server = await getServer(handle.db, { tenantId, name: "local" });
    expect(server.env).toEqual({ LOG_LEVEL: "info", TOKEN: { secret: "gh-token", isSet: true } });
    const remote = await getServer(handle.db, { tenantId, name: "remote" });
    expect(remote.auth).toEqual({ type: "bearer", credential: { secret: "remote-token", isSet: false } });
    expect(JSON.stringify(await listServers(handle.db, { tenantId }))).not.toContain("canary-value-123");
  });

  it("refuses a duplicate name with a conflict and keeps the original", async () => {
    const error = await expectAppError(
      registerServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        input: { ...httpServer, name: "local" },
      }),
      "conflict",
    );
    expect(error.message).toContain('"local" already exists');
    expect((await getServer(handle.db, { tenantId, name: "local" })).transport).toBe("stdio");
  });

  it("keeps a server's limits when it is renamed", async () => {
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      input: { ...httpServer, name: "billing", auth: { type: "none" } },
    });
    await putLimitsPolicy(handle.db, {
      tenantId,
      input: { servers: { billing: { callsPerMinute: 30 }, other: { concurrentCalls: 2 } } },
      by: null,
    });
    await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      name: "billing",
      patch: { name: "billing-eu" },
    });
    const { servers } = await getLimitsPolicy(handle.db, { tenantId });
    expect(servers).toEqual({ "billing-eu": { callsPerMinute: 30 }, other: { concurrentCalls: 2 } });
    await deleteServer(handle.db, { tenantId, name: "billing-eu", by: null });
    await putLimitsPolicy(handle.db, { tenantId, input: {}, by: null });
  });

  it("patches fields, switches transport and keeps the result valid", async () => {
    const patched = await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      name: "local",
      patch: { enabled: false, args: ["b.js"] },
    });
    expect(patched).toMatchObject({ enabled: false, args: ["b.js"], command: "node", status: "disabled" });

    const switched = await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      name: "local",
      patch: { transport: "sse", url: "http://127.0.0.1:9000/sse" },
    });
    expect(switched).toMatchObject({ transport: "sse", command: null, args: [], env: {}, enabled: false });
  });

  it("rejects an invalid patch and changes nothing", async () => {
    const before = await getServer(handle.db, { tenantId, name: "remote" });
    const error = await expectAppError(
      updateServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        name: "remote",
        patch: { url: "ftp://nope" },
      }),
      "validation",
    );
    expect(error.fieldErrors?.url?.[0]).toMatch(/http/);
    expect(await getServer(handle.db, { tenantId, name: "remote" })).toEqual(before);
  });

  it("renames only to a free name", async () => {
    await expectAppError(
      updateServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        name: "remote",
        patch: { name: "local" },
      }),
      "conflict",
    );
    const renamed = await updateServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      name: "remote",
      patch: { name: "remote-2" },
    });
    expect(renamed.name).toBe("remote-2");
  });

  it("deletes a server and answers not_found for unknown names", async () => {
    await deleteServer(handle.db, { tenantId, name: "remote-2", by: null });
    await expectAppError(getServer(handle.db, { tenantId, name: "remote-2" }), "not_found");
    await expectAppError(deleteServer(handle.db, { tenantId, name: "remote-2", by: null }), "not_found");
  });

  it("keeps each workspace's servers apart", async () => {
    const [other] = await handle.db
      .insert((await import("@/db/schema")).tenants)
      .values({ slug: `other-${driver}`, name: "Other" })
      .returning();
    if (!other) throw new Error("tenant not created");
    await registerServer(handle.db, { authority: SYSTEM_AUTHORITY, tenantId: other.id, input: stdioServer });
    await expectAppError(getServer(handle.db, { tenantId: other.id, name: "remote" }), "not_found");
    expect((await listServers(handle.db, { tenantId: other.id })).map((s) => s.name)).toEqual(["local"]);
    const all = await handle.db.select({ name: mcpServers.name }).from(mcpServers);
    expect(all.filter((s) => s.name === "local")).toHaveLength(2);
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putSecretRoute } from "@/app/api/v1/secrets/[name]/route";
import {
  DELETE as deleteServerRoute,
  GET as getServerRoute,
  PATCH as patchServerRoute,
} from "@/app/api/v1/servers/[name]/route";
import { GET as listServersRoute } from "@/app/api/v1/servers/route";
import { tenants } from "@/db/schema";
import { WORKSPACE_COOKIE } from "@/lib/auth/actor";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { listSecrets, readSecretValue } from "@/lib/secrets/secrets";
import { registerServer } from "@/lib/servers/registry";
import {
  createTestApiKey,
  createTestOperator,
  drivers,
  openProcessTestDatabase,
} from "../fixtures/databases";

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const url = (p: string) => `http://127.0.0.1:3000${p}`;
const named = (name: string) => ({ params: Promise.resolve({ name }) });

describe.each(drivers)("workspace isolation on %s", (driver) => {
  let handle: ProcessDatabase;
  let workspaceB: string;
  let operatorA: { cookie: string };
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    const [b] = await handle.db.insert(tenants).values({ slug: "beta", name: "Beta" }).returning();
    if (!b) throw new Error("no tenant");
    workspaceB = b.id;
    operatorA = await createTestOperator(handle, { email: `a-${driver}@example.com`, role: "admin" });
    keyA = await createTestApiKey(handle, ["admin"]);
    keyB = await createTestApiKey(handle, ["admin"], workspaceB);
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: workspaceB,
      input: { name: "b-server", transport: "stdio", command: "node" },
    });
    await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: { name: "a-server", transport: "stdio", command: "node" },
    });
  });
  afterAll(() => handle?.close());

  const asA = () => [
    { label: "operator A's session", headers: () => new Headers({ cookie: operatorA.cookie }) },
    { label: "workspace A's key", headers: () => new Headers({ authorization: `Bearer ${keyA}` }) },
    {
      label: "operator A with a forged workspace cookie naming B",
      headers: () => new Headers({ cookie: `${operatorA.cookie}; ${WORKSPACE_COOKIE}=${workspaceB}` }),
    },
  ];

  for (const who of asA()) {
    it(`${who.label} cannot see, change or delete workspace B's server`, async () => {
      const list = await listServersRoute(new Request(url("/api/v1/servers"), { headers: who.headers() }), {
        params: Promise.resolve({}),
      });
      const names = ((await list.json()) as { servers: { name: string }[] }).servers.map((s) => s.name);
      expect(names).toContain("a-server");
      expect(names).not.toContain("b-server");

      const get = await getServerRoute(
        new Request(url("/api/v1/servers/b-server"), { headers: who.headers() }),
        named("b-server"),
      );
      expect(get.status).toBe(404);

      const patchHeaders = who.headers();
      patchHeaders.set("content-type", "application/json");
      const patch = await patchServerRoute(
        new Request(url("/api/v1/servers/b-server"), {
          method: "PATCH",
          headers: patchHeaders,
          body: '{"enabled":false}',
        }),
        named("b-server"),
      );
      expect(patch.status).toBe(404);

      const del = await deleteServerRoute(
        new Request(url("/api/v1/servers/b-server"), { method: "DELETE", headers: who.headers() }),
        named("b-server"),
      );
      expect(del.status).toBe(404);

      const asB = await getServerRoute(
        new Request(url("/api/v1/servers/b-server"), { headers: { authorization: `Bearer ${keyB}` } }),
        named("b-server"),
      );
      expect(await asB.json()).toMatchObject({ server: { name: "b-server", enabled: true } });
    });
  }

  // %E0 is not valid percent-encoding: decodeURIComponent throws on it, which once made a 500.
  it.each(["%E0", "%", "%ZZ;%E0"])(
    "a workspace cookie that is not percent-encoding (%s) grants nothing and breaks nothing",
    async (value) => {
      const res = await listServersRoute(
        new Request(url("/api/v1/servers"), {
          headers: { cookie: `${operatorA.cookie}; ${WORKSPACE_COOKIE}=${value}` },
        }),
        { params: Promise.resolve({}) },
      );
      expect(res.status).toBe(200);
      // Treated as no valid choice: the operator's own (first) workspace.
      const names = ((await res.json()) as { servers: { name: string }[] }).servers.map((s) => s.name);
      expect(names).toContain("a-server");
      expect(names).not.toContain("b-server");
    },
  );

  it("a secret of the same name in workspace A never touches workspace B's", async () => {
    const put = (key: string, value: string) =>
      putSecretRoute(
        new Request(url("/api/v1/secrets/shared"), {
          method: "PUT",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ value }),
        }),
        named("shared"),
      );
    expect((await put(keyB, "value-of-b")).status).toBe(201);
    expect((await put(keyA, "value-of-a")).status).toBe(201);
    expect(await readSecretValue(handle.db, { tenantId: workspaceB, name: "shared" })).toBe("value-of-b");
    expect((await listSecrets(handle.db, { tenantId: workspaceB })).map((s) => s.name)).toEqual(["shared"]);
  });

  it("switching to a workspace one is not a member of answers not found", async () => {
    const { switchWorkspaceAction } = await import("@/app/(dashboard)/actions");
    requestHeaders = new Headers({ cookie: operatorA.cookie });
    expect(await switchWorkspaceAction(workspaceB)).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(await switchWorkspaceAction(handle.defaultTenant.id)).toEqual({ ok: true, data: null });
  });
});

// The catalog store on both databases, fed by real servers over stdio where it matters: a server
// whose tool list changes while it runs, and server-everything's real schemas.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpServers, tenants, tools } from "@/db/schema";
import { discoverCatalog } from "@/lib/catalog/discovery";
import { type CatalogContents, emptyDiff } from "@/lib/catalog/hashing";
import { toGatewayName } from "@/lib/catalog/naming";
import { listAllTools, listCatalogEntries, listServerTools, listSnapshots } from "@/lib/catalog/read-catalog";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import type { DatabaseHandle } from "@/lib/db/client";
import { putSecret } from "@/lib/secrets/secrets";
import { drivers, openTestDatabase } from "../../fixtures/databases";
import {
  connectStdio,
  everythingServer,
  type StdioConnection,
  tsServer,
} from "../../fixtures/mcp-servers/catalog-connect";

const tool = (name: string, description = `${name} tool`): Tool => ({
  name,
  description,
  inputSchema: { type: "object" },
});
const catalog = (parts: Partial<CatalogContents>): CatalogContents => ({
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  ...parts,
});

describe.each(drivers)("catalog store on %s", (driver) => {
  let handle: DatabaseHandle;
  let tenantId: string;
  let otherTenantId: string;

  async function addTenant(slug: string): Promise<string> {
    const [row] = await handle.db.insert(tenants).values({ slug, name: slug }).returning({ id: tenants.id });
    if (!row) throw new Error("tenant not created");
    return row.id;
  }
  async function addServer(tenant: string, name: string): Promise<string> {
    const [row] = await handle.db
      .insert(mcpServers)
      .values({ tenantId: tenant, name, transport: "stdio", command: "node" })
      .returning({ id: mcpServers.id });
    if (!row) throw new Error("server not created");
    return row.id;
  }
  /** What an admin does on the tools page (lib/policy/effects will own this). */
  async function classify(serverId: string, name: string, effect: "read" | "write") {
    await handle.db
      .update(tools)
      .set({ effect })
      .where(and(eq(tools.serverId, serverId), eq(tools.name, name)));
  }
  const effects = async (serverId: string) =>
    Object.fromEntries(
      (await listServerTools(handle.db, { tenantId, serverId, includeRemoved: true })).map((t) => [
        t.name,
        t.effect,
      ]),
    );

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    tenantId = await addTenant("acme");
    otherTenantId = await addTenant("globex");
  });
  afterAll(() => handle?.close());

  describe("a server whose tool list changes", () => {
    let connection: StdioConnection;
    let serverId: string;
    const discover = () => discoverCatalog(connection.client);

    /** Calls `toggle` and waits until the server has announced every change it makes. */
    async function toggle() {
      const seen = connection.toolListChanges();
      await connection.client.callTool({ name: "toggle", arguments: {} });
      // One notification for the description change and one for adding or removing `extra`.
      await connection.waitForToolListChange(seen + 1);
    }

    beforeAll(async () => {
      serverId = await addServer(tenantId, "changing");
      connection = await connectStdio(tsServer("tests/fixtures/mcp-servers/catalog-changing.ts"));
    });
    afterAll(() => connection?.close());

    it("stores the first catalog with a snapshot listing everything as added", async () => {
      const result = await saveCatalog(handle.db, { tenantId, serverId, catalog: await discover() });
      expect(result.changed).toBe(true);
      expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(result.diff).toEqual({
        ...emptyDiff(),
        tools: { added: ["mutable", "stable", "toggle"], removed: [], changed: [] },
        resources: { added: ["fixture://notes"], removed: [], changed: [] },
      });
      const stored = await listServerTools(handle.db, { tenantId, serverId });
      expect(stored.map((t) => [t.name, t.gatewayName, t.effect, t.removedAt, t.conflictsWith])).toEqual([
        ["mutable", "changing__mutable", null, null, []],
        ["stable", "changing__stable", null, null, []],
        ["toggle", "changing__toggle", null, null, []],
      ]);
      expect(stored[1]).toMatchObject({
        serverName: "changing",
        description: "Never changes.",
        definition: { name: "stable", annotations: { readOnlyHint: true } },
      });
      expect(new Date(stored[0]?.createdAt ?? "").toISOString()).toBe(stored[0]?.createdAt);
      const [resource] = await listCatalogEntries(handle.db, { tenantId, serverId, kind: "resource" });
      expect(resource).toMatchObject({ key: "fixture://notes", definition: { mimeType: "text/plain" } });
      const snapshots = await listSnapshots(handle.db, { tenantId, serverId });
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]).toMatchObject({
        id: result.snapshotId,
        hash: result.hash,
        counts: { tools: 3, resources: 1, resourceTemplates: 0, prompts: 0 },
      });
    });

    it("records nothing new when the catalog has not changed", async () => {
      const before = await listServerTools(handle.db, { tenantId, serverId });
      const [latest] = await listSnapshots(handle.db, { tenantId, serverId });
      const result = await saveCatalog(handle.db, { tenantId, serverId, catalog: await discover() });
      expect(result).toEqual({
        changed: false,
        snapshotId: latest?.id,
        hash: latest?.hash,
        diff: emptyDiff(),
        problems: [],
      });
      expect(await listSnapshots(handle.db, { tenantId, serverId })).toHaveLength(1);
      expect(await listServerTools(handle.db, { tenantId, serverId })).toEqual(before);
    });

    it("records drift as a new snapshot and sends a changed tool back for review", async () => {
      await classify(serverId, "mutable", "read");
      await classify(serverId, "stable", "read");
      await classify(serverId, "toggle", "write");
      await toggle();
      const result = await saveCatalog(handle.db, { tenantId, serverId, catalog: await discover() });
      expect(result.changed).toBe(true);
      expect(result.diff.tools).toEqual({ added: ["extra"], removed: [], changed: ["mutable"] });
      expect(await effects(serverId)).toEqual({
        extra: null,
        mutable: null,
        stable: "read",
        toggle: "write",
      });
      const snapshots = await listSnapshots(handle.db, { tenantId, serverId });
      expect(snapshots.map((s) => s.id)[0]).toBe(result.snapshotId);
      expect(snapshots[0]?.diff.tools).toEqual(result.diff.tools);
      expect(snapshots[0]?.counts.tools).toBe(4);
    });

    it("keeps a vanished tool as removed, with its classification, and revives it unchanged", async () => {
      await classify(serverId, "extra", "write");
      await toggle();
      const removal = await saveCatalog(handle.db, { tenantId, serverId, catalog: await discover() });
      expect(removal.diff.tools).toEqual({ added: [], removed: ["extra"], changed: ["mutable"] });
      expect((await listServerTools(handle.db, { tenantId, serverId })).map((t) => t.name)).toEqual([
        "mutable",
        "stable",
        "toggle",
      ]);
      const all = await listServerTools(handle.db, { tenantId, serverId, includeRemoved: true });
      const extra = all.find((t) => t.name === "extra");
      expect(extra?.removedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      expect(extra?.effect).toBe("write");

      await toggle();
      const revival = await saveCatalog(handle.db, { tenantId, serverId, catalog: await discover() });
      expect(revival.diff.tools).toEqual({ added: ["extra"], removed: [], changed: ["mutable"] });
      const revived = (await listServerTools(handle.db, { tenantId, serverId })).find(
        (t) => t.name === "extra",
      );
      // Same definition as before it left: the admin's decision still applies.
      expect(revived).toMatchObject({ removedAt: null, effect: "write" });
    });

    it("lists snapshots newest first, as many as asked for", async () => {
      const snapshots = await listSnapshots(handle.db, { tenantId, serverId, limit: 2 });
      expect(snapshots).toHaveLength(2);
      expect(snapshots[0]?.diff.tools.added).toEqual(["extra"]);
      expect(snapshots[1]?.diff.tools.removed).toEqual(["extra"]);
      expect(await listSnapshots(handle.db, { tenantId, serverId })).toHaveLength(4);
    });
  });

  describe("server-everything's real catalog", () => {
    let connection: StdioConnection;
    let serverId: string;

    beforeAll(async () => {
      serverId = await addServer(tenantId, "everything");
      connection = await connectStdio(everythingServer());
      await connection.waitForToolListChange(0);
    });
    afterAll(() => connection?.close());

    it("survives the database round trip exactly, so the next discovery is not drift", async () => {
      const discovered = await discoverCatalog(connection.client);
      const first = await saveCatalog(handle.db, { tenantId, serverId, catalog: discovered });
      expect(first.diff.tools.added).toHaveLength(13);
      const stored = await listServerTools(handle.db, { tenantId, serverId });
      const byName = new Map(stored.map((t) => [t.name, t.definition]));
      for (const definition of discovered.tools) expect(byName.get(definition.name)).toEqual(definition);
      for (const kind of ["resource", "resource-template", "prompt"] as const) {
        expect(await listCatalogEntries(handle.db, { tenantId, serverId, kind })).toHaveLength(
          { resource: 7, "resource-template": 2, prompt: 4 }[kind],
        );
      }
      const again = await saveCatalog(handle.db, {
        tenantId,
        serverId,
        catalog: await discoverCatalog(connection.client),
      });
      expect(again.changed).toBe(false);
      expect(again.snapshotId).toBe(first.snapshotId);
    });
  });

  describe("concurrent saves (two replicas discovering one server)", () => {
    it("record one snapshot, not two", async () => {
      const serverId = await addServer(tenantId, "racing");
      // Nothing to upsert, so no row conflict orders the two transactions: only the server lock does.
      const found = catalog({});
      const results = await Promise.all([
        saveCatalog(handle.db, { tenantId, serverId, catalog: found }),
        saveCatalog(handle.db, { tenantId, serverId, catalog: found }),
      ]);
      expect(results.map((r) => r.changed).sort()).toEqual([false, true]);
      expect(results[0]?.snapshotId).toBe(results[1]?.snapshotId);
      expect(await listSnapshots(handle.db, { tenantId, serverId })).toHaveLength(1);
    });
  });

  describe("a catalog that lists one name twice", () => {
    it("stores the first and still saves (one statement cannot upsert a row twice)", async () => {
      const serverId = await addServer(tenantId, "doubled");
      const result = await saveCatalog(handle.db, {
        tenantId,
        serverId,
        catalog: catalog({ tools: [tool("a", "first"), tool("a", "second")] }),
      });
      expect(result.diff.tools.added).toEqual(["a"]);
      const stored = await listServerTools(handle.db, { tenantId, serverId });
      expect(stored.map((t) => t.description)).toEqual(["first"]);
    });
  });

  describe("resources, templates and prompts", () => {
    it("replaces entries and deletes vanished ones", async () => {
      const serverId = await addServer(tenantId, "entries");
      await saveCatalog(handle.db, {
        tenantId,
        serverId,
        catalog: catalog({
          resources: [
            { uri: "x://a", name: "a" },
            { uri: "x://b", name: "b" },
          ],
          resourceTemplates: [{ uriTemplate: "x://{id}", name: "by id" }],
          prompts: [{ name: "p" }],
        }),
      });
      const result = await saveCatalog(handle.db, {
        tenantId,
        serverId,
        catalog: catalog({ resources: [{ uri: "x://a", name: "a", description: "now described" }] }),
      });
      expect(result.diff).toEqual({
        tools: { added: [], removed: [], changed: [] },
        resources: { added: [], removed: ["x://b"], changed: ["x://a"] },
        resourceTemplates: { added: [], removed: ["x://{id}"], changed: [] },
        prompts: { added: [], removed: ["p"], changed: [] },
      });
      const resources = await listCatalogEntries(handle.db, { tenantId, serverId, kind: "resource" });
      expect(resources.map((r) => [r.key, r.definition.description])).toEqual([["x://a", "now described"]]);
      expect(await listCatalogEntries(handle.db, { tenantId, serverId, kind: "resource-template" })).toEqual(
        [],
      );
      expect(await listCatalogEntries(handle.db, { tenantId, serverId, kind: "prompt" })).toEqual([]);
    });
  });

  describe("gateway names", () => {
    it("shortens long names, and shows a name clash on every tool involved", async () => {
      const serverId = await addServer(tenantId, "names");
      const long = `search_${"x".repeat(70)}`;
      // A tool whose literal name is what "a b" becomes once cleaned: both would be exposed alike.
      const lookalike = toGatewayName("names", "a b").slice("names__".length);
      await saveCatalog(handle.db, {
        tenantId,
        serverId,
        catalog: catalog({ tools: [tool(long), tool("a b"), tool(lookalike), tool("plain")] }),
      });
      const stored = await listServerTools(handle.db, { tenantId, serverId });
      const byName = new Map(stored.map((t) => [t.name, t]));
      // The default budget: 46, so Claude Code's `mcp__switchboard__` + the name stays within 64.
      expect(byName.get(long)?.gatewayName).toHaveLength(46);
      expect(byName.get(long)?.gatewayName).toBe(toGatewayName("names", long));
      expect(byName.get("a b")?.conflictsWith).toEqual([{ serverName: "names", toolName: lookalike }]);
      expect(byName.get(lookalike)?.conflictsWith).toEqual([{ serverName: "names", toolName: "a b" }]);
      expect(byName.get("plain")?.conflictsWith).toEqual([]);
      const everywhere = await listAllTools(handle.db, { tenantId });
      expect(everywhere.filter((t) => t.conflictsWith.length > 0).map((t) => t.name)).toEqual([
        "a b",
        lookalike,
      ]);
    });

    it("follows a renamed server on the next save", async () => {
      const serverId = await addServer(tenantId, "before");
      const tools = catalog({ tools: [tool("t")] });
      await saveCatalog(handle.db, { tenantId, serverId, catalog: tools });
      await handle.db.update(mcpServers).set({ name: "after" }).where(eq(mcpServers.id, serverId));
      const result = await saveCatalog(handle.db, { tenantId, serverId, catalog: tools });
      expect(result.changed).toBe(false);
      const [stored] = await listServerTools(handle.db, { tenantId, serverId });
      expect(stored).toMatchObject({ gatewayName: "after__t", serverName: "after" });
    });
  });

  describe("workspaces", () => {
    it("lists every tool of the workspace by server, and nothing of another workspace", async () => {
      const foreignServer = await addServer(otherTenantId, "changing");
      await saveCatalog(handle.db, {
        tenantId: otherTenantId,
        serverId: foreignServer,
        catalog: catalog({ tools: [tool("stable")] }),
      });
      const mine = await listAllTools(handle.db, { tenantId });
      expect(new Set(mine.map((t) => t.serverName))).toEqual(
        new Set(["after", "changing", "doubled", "everything", "names"]),
      );
      expect(mine.map((t) => `${t.serverName}/${t.name}`)).toEqual(
        [...mine.map((t) => `${t.serverName}/${t.name}`)].sort(),
      );
      // Same server and tool names in another workspace are not a clash.
      expect(mine.find((t) => t.gatewayName === "changing__stable")?.conflictsWith).toEqual([]);
      const theirs = await listAllTools(handle.db, { tenantId: otherTenantId });
      expect(theirs.map((t) => t.gatewayName)).toEqual(["changing__stable"]);
    });

    it("stores no value of the workspace's secrets: texts scrubbed, an entry named by one left out", async () => {
      const value = "sk-live-0123456789abcdef";
      await putSecret(handle.db, { tenantId, name: "echoed-token", value, by: null });
      const echoing = await addServer(tenantId, "echoing");
      const result = await saveCatalog(handle.db, {
        tenantId,
        serverId: echoing,
        catalog: catalog({
          tools: [tool("search", `Authenticates with ${value}.`), tool(`leak_${value}`)],
          prompts: [{ name: "p", arguments: [{ name: "a", description: `key ${value}` }] }],
        }),
        problems: [`tool #9 ("x${value}") was skipped: it is not an object`],
      });
      const stored = await listServerTools(handle.db, { tenantId, serverId: echoing });
      expect(stored.map((t) => [t.name, t.description])).toEqual([
        ["search", "Authenticates with [redacted]."],
      ]);
      const [snapshot] = await listSnapshots(handle.db, { tenantId, serverId: echoing });
      const prompts = await listCatalogEntries(handle.db, { tenantId, serverId: echoing, kind: "prompt" });
      for (const text of [stored, snapshot, prompts, result].map((v) => JSON.stringify(v)))
        expect(text).not.toContain(value);
      expect(result.problems).toEqual([
        'tool #9 ("x[redacted]") was skipped: it is not an object',
        "tool #2 was skipped: its name contains the value of a secret",
      ]);
    });

    it("refuses to read or write another workspace's server", async () => {
      const foreignServer = await addServer(otherTenantId, "private");
      await expect(
        saveCatalog(handle.db, {
          tenantId,
          serverId: foreignServer,
          catalog: catalog({ tools: [tool("t")] }),
        }),
      ).rejects.toMatchObject({ code: "not_found" });
      expect(await listServerTools(handle.db, { tenantId: otherTenantId, serverId: foreignServer })).toEqual(
        [],
      );
      await saveCatalog(handle.db, {
        tenantId: otherTenantId,
        serverId: foreignServer,
        catalog: catalog({ tools: [tool("t")] }),
      });
      expect(await listServerTools(handle.db, { tenantId, serverId: foreignServer })).toEqual([]);
      expect(await listSnapshots(handle.db, { tenantId, serverId: foreignServer })).toEqual([]);
      expect(
        await listCatalogEntries(handle.db, { tenantId, serverId: foreignServer, kind: "prompt" }),
      ).toEqual([]);
    });
  });
});

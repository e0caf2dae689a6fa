// The gateway's cached catalog on a real database: kept one server at a time, so a change of one
// server's catalog or of one of its tools re-reads that server only, while name conflicts, which
// span servers, follow at once.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpServers, tools } from "@/db/schema";
import { cachedGovernedTools } from "@/lib/catalog/cached-catalog";
import { updateTool } from "@/lib/catalog/governed-tools";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import { recordEvent } from "@/lib/events/record-event";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { openProcessTestDatabase } from "../../fixtures/databases";

const tool = (name: string): Tool => ({ name, description: `${name} tool`, inputSchema: { type: "object" } });

describe("the gateway's cached catalog", () => {
  let handle: ProcessDatabase;
  let tenantId: string;
  const servers: Record<string, string> = {};

  /** Stores a server's catalog and announces it, as a refresh does (lib/runtime/server-runtime). */
  async function refresh(name: string, names: string[]) {
    const serverId = servers[name] ?? "";
    const catalog = { tools: names.map(tool), resources: [], resourceTemplates: [], prompts: [] };
    const result = await saveCatalog(handle.db, { tenantId, serverId, catalog });
    await recordEvent(handle.db, {
      tenantId,
      event: {
        type: "catalog.changed",
        serverId,
        serverName: name,
        snapshotId: result.snapshotId,
        diff: result.diff,
      },
    });
  }
  const listed = async () =>
    new Map(
      (await cachedGovernedTools(handle.db, { tenantId })).map((t) => [`${t.serverName}/${t.name}`, t]),
    );

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    tenantId = handle.defaultTenant.id;
    // "dup" + "a__x" and "dup__a" + "x" are both exposed as dup__a__x: a clash across servers.
    for (const name of ["dup", "dup__a"]) {
      const [row] = await handle.db
        .insert(mcpServers)
        .values({ tenantId, name, transport: "stdio", command: "node" })
        .returning({ id: mcpServers.id });
      servers[name] = row?.id ?? "";
    }
    await refresh("dup", ["a__x", "keep"]);
    await refresh("dup__a", ["y"]);
  });
  afterAll(() => handle?.close());

  it("re-reads only the server whose catalog changed, and shows a clash it makes on both sides", async () => {
    const before = await listed();
    expect([...before.keys()]).toEqual(["dup/a__x", "dup/keep", "dup__a/y"]);
    expect(before.get("dup/a__x")?.conflictsWith).toEqual([]);

    // Changed behind the cache's back (no event): whoever re-reads "dup" sees it.
    await handle.db
      .update(tools)
      .set({ definition: sql`jsonb_set(${tools.definition}, '{description}', '"changed unannounced"')` })
      .where(and(eq(tools.serverId, servers.dup ?? ""), eq(tools.name, "keep")));

    await refresh("dup__a", ["y", "x"]);
    const after = await listed();
    expect([...after.keys()]).toEqual(["dup/a__x", "dup/keep", "dup__a/x", "dup__a/y"]);
    expect(after.get("dup__a/x")?.conflictsWith).toEqual([{ serverName: "dup", toolName: "a__x" }]);
    expect(after.get("dup/a__x")?.conflictsWith).toEqual([{ serverName: "dup__a", toolName: "x" }]);
    // "dup" was not read again: its part is what the cache held.
    expect(after.get("dup/keep")?.description).toBe("keep tool");
  });

  it("re-reads a tool's server when the tool's settings change", async () => {
    const keep = (await listed()).get("dup/keep");
    await updateTool(handle.db, { tenantId, id: keep?.id ?? "", input: { effect: "read" } });
    const after = (await listed()).get("dup/keep");
    expect(after).toMatchObject({ effect: "read", description: "changed unannounced" });
  });

  it("forgets a removed clash on both sides", async () => {
    await refresh("dup__a", ["y"]);
    const after = await listed();
    expect(after.has("dup__a/x")).toBe(false);
    expect(after.get("dup/a__x")?.conflictsWith).toEqual([]);
  });
});

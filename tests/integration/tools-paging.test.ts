import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listToolsRoute } from "@/app/api/v1/tools/route";
import { tools } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { saveCatalog } from "@/lib/catalog/save-catalog";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { registerServer } from "@/lib/servers/registry";
import { createWorkspace } from "@/lib/tenancy/workspaces";
import { createTestAccount, createTestApiKey, openProcessTestDatabase } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * GET /api/v1/tools a page at a time: a cursor walks every tool exactly once in a stable order,
 * each filter narrows in the database (and pages the same way), a bad query is a 400 that says
 * what to fix, and another workspace's tools never show up, whatever the filter.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

type Page = { tools: Json[]; nextCursor: string | null; total: number };

describe("tools REST, paged", () => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let otherWorkspace: Record<string, string>;

  const get = (query: string, headers = admin) =>
    sendTo(listToolsRoute, `/api/v1/tools${query}`, { headers });
  /** Every page of `query`, following nextCursor: the gateway names in the order received. */
  const walk = async (query: Record<string, string>, headers = admin) => {
    const names: string[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
      const { status, body } = await get(`?${params}`, headers);
      expect(status, JSON.stringify(body)).toBe(200);
      const page = body as Page;
      names.push(...page.tools.map((tool) => tool.gatewayName as string));
      totals.add(page.total);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 100);
    return { names, pages, totals: [...totals] };
  };

  const catalogOf = (names: string[], extra: (name: string) => Json = () => ({})) =>
    ({
      tools: names.map((name) => ({ name, inputSchema: { type: "object" }, ...extra(name) })),
      resources: [],
      resourceTemplates: [],
      prompts: [],
    }) as never;
  const addServer = async (tenantId: string, name: string, catalog: ReturnType<typeof catalogOf>) => {
    const server = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId,
      input: { name, transport: "stdio", command: "node", args: ["x.js"], enabled: false },
    });
    await saveCatalog(handle.db, { tenantId, serverId: server.id, catalog });
    return server.id;
  };
  const setTool = (gatewayName: string, values: Partial<typeof tools.$inferInsert>) =>
    handle.db
      .update(tools)
      .set(values)
      .where(and(eq(tools.tenantId, handle.defaultTenant.id), eq(tools.gatewayName, gatewayName)));

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    const tenantId = handle.defaultTenant.id;
    admin = bearer(await createTestApiKey(handle, ["admin"]));
    // 3 servers × 9 tools; "100%_off" and "a_b" test LIKE's wildcards as text.
    const names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "a_b"];
    await addServer(tenantId, "github", catalogOf(names));
    await addServer(
      tenantId,
      "notes",
      catalogOf(names, (name) =>
        name === "theta" ? { description: "Prices: 100%_off today", title: "Sale Finder" } : {},
      ),
    );
    await addServer(
      tenantId,
      "weather",
      catalogOf(names, () => ({ annotations: { title: "Forecast" } })),
    );
    await setTool("github__alpha", { effect: "read" });
    await setTool("notes__alpha", { effect: "read" });
    await setTool("github__beta", { effect: "destructive", enabled: false });
    await setTool("weather__gamma", { quarantinedAt: new Date(), quarantinedBy: "test" });
    // Removed tools are history: never listed.
    await setTool("weather__zeta", { removedAt: new Date() });

    // Another workspace with tools named like these, on a server of the same name.
    const owner = await createTestAccount(handle, { email: "owner-b@example.com" });
    const b = await createWorkspace(handle.db, {
      userId: owner.userId,
      instanceOwner: true,
      input: { name: "Beta" },
    });
    await addServer(b.id, "github", catalogOf(["alpha", "secret_of_b"]));
    otherWorkspace = bearer(await createTestApiKey(handle, ["admin"], b.id));
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("walks every live tool exactly once, in gateway-name order, whatever the page size", async () => {
    const everything = await get("?limit=500");
    expect(everything.body.nextCursor).toBeNull();
    const all = (everything.body as Page).tools.map((tool) => tool.gatewayName as string);
    expect(all).toHaveLength(26);
    expect(all).not.toContain("weather__zeta");
    expect(all).toEqual([...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(everything.body.total).toBe(26);

    for (const limit of [1, 4, 25, 26]) {
      const { names, pages, totals } = await walk({ limit: String(limit) });
      expect(names).toEqual(all);
      expect(pages).toBe(Math.ceil(26 / limit));
      expect(totals).toEqual([26]);
    }
    // Without a limit: 100 a page.
    expect((await get("")).body.tools).toHaveLength(26);
  });

  it("filters in the database: text, server, effect and status, alone or together, paged the same way", async () => {
    const namesOf = async (query: Record<string, string>) => {
      const { names, totals } = await walk({ ...query, limit: "2" });
      expect(totals).toEqual([names.length]);
      return names;
    };
    // Case-insensitive substring of gateway name, name, server, title or description.
    expect(await namesOf({ q: "ALPHA" })).toEqual(["github__alpha", "notes__alpha", "weather__alpha"]);
    expect(await namesOf({ q: "notes__e" })).toEqual(["notes__epsilon", "notes__eta"]);
    expect(await namesOf({ q: "Sale finder" })).toEqual(["notes__theta"]);
    expect(await namesOf({ q: "100%_OFF" })).toEqual(["notes__theta"]);
    expect((await namesOf({ q: "forecast" })).length).toBe(8);
    expect((await namesOf({ q: "weath" })).length).toBe(8);
    // % and _ are text, not wildcards: "e_a" is not "eta", and "%" matches only the sale.
    expect(await namesOf({ q: "a_b" })).toEqual(["github__a_b", "notes__a_b", "weather__a_b"]);
    expect(await namesOf({ q: "e_a" })).toEqual([]);
    expect(await namesOf({ q: "%" })).toEqual(["notes__theta"]);
    expect(await namesOf({ q: "nothing like this" })).toEqual([]);
    // Blank text is no filter.
    expect((await namesOf({ q: "  " })).length).toBe(26);

    expect((await namesOf({ server: "notes" })).length).toBe(9);
    expect((await namesOf({ server: "notes" })).every((name) => name.startsWith("notes__"))).toBe(true);
    expect(await namesOf({ server: "nowhere" })).toEqual([]);

    expect(await namesOf({ effect: "read" })).toEqual(["github__alpha", "notes__alpha"]);
    expect(await namesOf({ effect: "destructive" })).toEqual(["github__beta"]);
    expect(await namesOf({ effect: "write" })).toEqual([]);
    expect((await namesOf({ effect: "unclassified" })).length).toBe(23);

    expect(await namesOf({ status: "disabled" })).toEqual(["github__beta"]);
    expect((await namesOf({ status: "enabled" })).length).toBe(25);
    expect(await namesOf({ status: "quarantined" })).toEqual(["weather__gamma"]);

    expect(await namesOf({ q: "alpha", effect: "read", server: "notes" })).toEqual(["notes__alpha"]);
    expect(await namesOf({ server: "github", status: "enabled", effect: "unclassified" })).toHaveLength(7);
  });

  it("computes the per-tool extras for the page's tools, as the unpaged list did", async () => {
    const { body } = await get("?q=weather__gamma");
    expect(body.tools).toEqual([
      expect.objectContaining({
        gatewayName: "weather__gamma",
        serverName: "weather",
        title: "Forecast",
        serverEnabled: false,
        serverStatus: "disabled",
        enforcedEffect: "external-write",
        isClassified: false,
        recentCrashes: 0,
        quarantine: expect.objectContaining({ by: "test" }),
      }),
    ]);
  });

  it("answers a bad limit, effect, status or cursor with a 400 that says what to send", async () => {
    const problem = async (query: string) => {
      const { status, body } = await get(query);
      expect(status).toBe(400);
      return body.error.message as string;
    };
    expect(await problem("?limit=0")).toMatch(/limit is a whole number from 1 to 500/);
    expect(await problem("?limit=lots")).toMatch(/limit is a whole number from 1 to 500/);
    expect(await problem("?limit=2.5")).toMatch(/limit is a whole number from 1 to 500/);
    expect(await problem("?limit=501")).toMatch(/limit is at most 500/);
    expect(await problem("?effect=harmless")).toMatch(
      /effect is one of read, write, external-write, destructive, unclassified/,
    );
    expect(await problem("?status=broken")).toMatch(/status is one of enabled, disabled, quarantined/);
    expect(await problem("?cursor=not-a-cursor")).toMatch(/cursor is not valid: pass nextCursor/);
    const forged = Buffer.from(JSON.stringify({ after: "x" })).toString("base64url");
    expect(await problem(`?cursor=${forged}`)).toMatch(/cursor is not valid/);
    expect(await problem("?sort=name")).toMatch(/Unknown field "sort"/);
  });

  it("never shows another workspace's tools, and each workspace pages only its own", async () => {
    const queries: [Record<string, string>, number][] = [
      [{}, 26],
      [{ q: "alpha" }, 3],
      [{ server: "github" }, 9],
      [{ q: "secret" }, 0],
      [{ effect: "unclassified" }, 23],
    ];
    for (const [query, count] of queries) {
      const { names, totals } = await walk({ ...query, limit: "3" });
      expect(names).not.toContain("github__secret_of_b");
      expect(names).toHaveLength(count);
      expect(totals).toEqual([count]);
    }
    expect((await walk({ limit: "1" }, otherWorkspace)).names).toEqual([
      "github__alpha",
      "github__secret_of_b",
    ]);
    // A's cursor in B's hands is only a position in B's own list.
    const first = (await get("?limit=1")).body as Page;
    const next = (await get(`?limit=10&cursor=${first.nextCursor}`, otherWorkspace)).body as Page;
    expect(next.tools.map((tool) => tool.gatewayName)).toEqual(["github__alpha", "github__secret_of_b"]);
  });
});

import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listToolsRoute } from "@/app/api/v1/tools/route";
import { tools } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { registerServer } from "@/lib/servers/registry";
import { createTestApiKey, openProcessTestDatabase } from "../fixtures/databases";
import { runCli } from "../fixtures/run-cli";

/*
 * `switchboard tools list` against the real GET /api/v1/tools (served over HTTP from the route
 * handler, on PGlite) with more tools than one page holds: every tool once, across pages, unless
 * --limit says fewer; the filters reach the server instead of being applied to a full download.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const TOOL_COUNT = 1_100;

describe("switchboard tools list", () => {
  let handle: ProcessDatabase;
  let server: http.Server;
  let url: string;
  let key: string;
  const requested: URL[] = [];

  const cli = (args: string[]) =>
    runCli(["tools", "list", ...args], {
      PATH: process.env.PATH,
      HOME: "/nonexistent",
      SWITCHBOARD_URL: url,
      SWITCHBOARD_API_KEY: key,
    } as Record<string, string> as NodeJS.ProcessEnv);
  const listed = async (args: string[]) => {
    const result = await cli([...args, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { gatewayName: string }[]).map((tool) => tool.gatewayName);
  };

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    const tenantId = handle.defaultTenant.id;
    key = await createTestApiKey(handle, ["admin"]);
    for (const name of ["alpha", "beta"]) {
      const { id } = await registerServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        input: { name, transport: "stdio", command: "node", args: ["x.js"], enabled: false },
      });
      // Rows written directly: a catalog of this size through discovery would only slow the test.
      await handle.db.insert(tools).values(
        Array.from({ length: TOOL_COUNT / 2 }, (_, i) => {
          const tool = `tool_${String(i).padStart(4, "0")}`;
          return {
            tenantId,
            serverId: id,
            name: tool,
            gatewayName: `${name}__${tool}`,
            definition: { name: tool, inputSchema: { type: "object" } },
            definitionHash: `${name}-${i}`,
            effect: i % 2 === 0 ? ("read" as const) : null,
          };
        }),
      );
    }
    server = http.createServer(async (req, res) => {
      const requestUrl = new URL(req.url ?? "/", "http://127.0.0.1");
      requested.push(requestUrl);
      const answer = await listToolsRoute(
        new Request(requestUrl, { headers: req.headers as Record<string, string> }),
        { params: Promise.resolve({}) } as never,
      );
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("follows the cursor through every page: each tool once, in order", async () => {
    requested.length = 0;
    const names = await listed([]);
    expect(names).toHaveLength(TOOL_COUNT);
    expect(new Set(names).size).toBe(TOOL_COUNT);
    expect(names[0]).toBe("alpha__tool_0000");
    expect(names.at(-1)).toBe("beta__tool_0549");
    expect(requested.map((u) => u.searchParams.get("limit"))).toEqual(["500", "500", "500"]);
    expect(requested[0]?.searchParams.has("cursor")).toBe(false);
    expect(requested.slice(1).every((u) => u.searchParams.get("cursor"))).toBe(true);
  });

  it("stops at --limit, asking for no more than it prints", async () => {
    requested.length = 0;
    expect(await listed(["--limit", "3"])).toEqual([
      "alpha__tool_0000",
      "alpha__tool_0001",
      "alpha__tool_0002",
    ]);
    expect(requested.map((u) => u.searchParams.get("limit"))).toEqual(["3"]);

    requested.length = 0;
    expect(await listed(["--limit", "700"])).toHaveLength(700);
    expect(requested.map((u) => u.searchParams.get("limit"))).toEqual(["500", "200"]);

    const refused = await cli(["--limit", "0"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("expected a whole number of tools, 1 or more");
  });

  it("passes the filters to the server", async () => {
    requested.length = 0;
    const names = await listed(["--server", "beta", "--effect", "unclassified", "-q", "tool_00"]);
    // beta's tool_0001 … tool_0099, odd ones (unclassified).
    expect(names).toHaveLength(50);
    expect(names.every((name) => name.startsWith("beta__tool_00"))).toBe(true);
    expect(Object.fromEntries(requested[0]?.searchParams ?? [])).toEqual({
      q: "tool_00",
      server: "beta",
      effect: "unclassified",
      limit: "500",
    });
    expect(await listed(["--status", "quarantined"])).toEqual([]);

    const unknown = await cli(["--effect", "harmless"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /harmless.*Allowed choices are read, write, external-write, destructive, unclassified/s,
    );
  });
});

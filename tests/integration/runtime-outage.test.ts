import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type McpServer, mcpServers, serverStatus, tools } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { openDatabase } from "@/lib/db/client";
import { type ProcessDatabase, setProcessDatabase } from "@/lib/runtime/process-db";
import { ServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer } from "@/lib/servers/registry";
import { allowTestLaunches } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { demoServer, tsxArgs } from "../fixtures/mcp-servers/pool-harness";
import { createTestDatabase, type PostgresServer, startPostgres } from "../fixtures/postgres-server";

/*
 * A server that connects while the database is out of reach: what the pool reported then (its
 * status, its catalog) is written once the database is back — before, the catalog was lost until
 * the server's next reconnect, and its tools stayed unknown to the gateway.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("the server runtime through a database outage", () => {
  let postgres: PostgresServer;
  let handle: ProcessDatabase;
  let runtime: ServerRuntime;

  beforeAll(async () => {
    postgres = await startPostgres();
    const url = await createTestDatabase(postgres.url);
    handle = await setProcessDatabase(await openDatabase({ driver: "postgres", url }));
    await allowTestLaunches(handle.db);
    // The outage's log lines are expected.
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterAll(async () => {
    await runtime?.stop();
    await handle?.close();
    await postgres?.stop();
  });

  it("stores the status and catalog of a server that connected while PostgreSQL was down", async () => {
    const registered = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "local-tools",
        transport: "stdio",
        command: "node",
        args: tsxArgs(demoServer("local-tools.ts")),
      },
    });
    const [row] = await handle.db.select().from(mcpServers).where(eq(mcpServers.id, registered.id));
    // The connection's own policy check reads the database: allowed here, as it was before the outage.
    runtime = new ServerRuntime(handle.db, { checkPolicy: async () => undefined });

    await postgres.halt();
    await runtime.pool.upsert(row as McpServer);
    await eventually(
      async () => (runtime.pool.state(registered.id) === "ready" ? true : undefined),
      "the server connected while the database is down",
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // its writes have failed by now
    await postgres.resume();

    const saved = await eventually(async () => {
      const rows = await handle.db.select().from(tools).where(eq(tools.serverId, registered.id));
      return rows.length > 0 ? rows : undefined;
    }, "the catalog written after the outage");
    expect(saved.map((t) => t.name).sort()).toEqual(["current_time", "echo", "word_count", "write_note"]);
    const [status] = await handle.db
      .select()
      .from(serverStatus)
      .where(eq(serverStatus.serverId, registered.id));
    expect(status?.state).toBe("ready");
  });
});

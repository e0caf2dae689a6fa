import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as liveness } from "@/app/api/v1/health/route";
import { GET as listServers } from "@/app/api/v1/servers/route";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { captureLogLines } from "@/lib/observability/log";

/**
 * A database that cannot be reached is the server's problem, not the caller's: a 503 that says so
 * (never a 500 "something went wrong", never the address it tried), and the next request tries again.
 */

const state = globalThis as { __switchboardDb?: unknown };
let saved: unknown;
/** The server log's lines during the test (JSON, one per line). */
let logged: string[];
let stopCapture: () => void;

beforeEach(() => {
  saved = state.__switchboardDb;
  state.__switchboardDb = undefined;
  // Nothing listens on port 1: the connection is refused at once.
  vi.stubEnv("DATABASE_URL", "postgres://switchboard@127.0.0.1:1/nowhere");
  logged = [];
  stopCapture = captureLogLines((line) => logged.push(line));
});
afterEach(() => {
  stopCapture();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  state.__switchboardDb = saved;
});

describe("when the database is not reachable", () => {
  it("the REST API answers 503 database_unavailable with a message a person understands", async () => {
    const response = await listServers(new Request("http://127.0.0.1:3000/api/v1/servers"), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("2");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("database_unavailable");
    expect(body.error.message).toMatch(/database is not reachable/);
    expect(body.error.message).not.toContain("127.0.0.1:1");
  });

  it("liveness still answers 200: the process is alive, restarting it would not help", async () => {
    const response = liveness();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", database: "postgres" });
  });

  it("the MCP gateway answers 503 too, and the next request tries again", async () => {
    const ask = () =>
      handleGatewayRequest(
        new Request("http://127.0.0.1:3000/mcp", {
          method: "POST",
          headers: {
            Authorization: "Bearer sb_0123456789abcdefghijklmnop",
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }),
        { scope: "all" },
      );
    expect((await ask()).status).toBe(503);
    // Not cached as broken: a second request tries to open the database again.
    expect((await ask()).status).toBe(503);
    expect(logged.filter((line) => line.includes("database not ready"))).toHaveLength(2);
  });
});

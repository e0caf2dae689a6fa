import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type CliResult, runCli } from "../fixtures/run-cli";

/*
 * `switchboard events tail` against a scripted SSE server, for what a live Switchboard cannot be
 * made to do on cue: drop the connection mid-stream. The real binary must reconnect, send
 * Last-Event-ID, and carry on without losing or repeating an event.
 */

const KEY = "sb_test-key-for-the-fake-server";

type Script = (req: http.IncomingMessage, res: http.ServerResponse, attempt: number) => void;

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function startServer(script: Script): Promise<{ url: string; requests: http.IncomingMessage[] }> {
  const requests: http.IncomingMessage[] = [];
  server = http.createServer((req, res) => {
    requests.push(req);
    script(req, res, requests.length);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function runTail(url: string, args: string[]): Promise<CliResult> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: "/nonexistent",
    SWITCHBOARD_URL: url,
    SWITCHBOARD_API_KEY: KEY,
  };
  return runCli(["events", "tail", ...args], env as NodeJS.ProcessEnv);
}

const sseEvent = (id: number, type: string, extra: Record<string, unknown> = {}) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type, createdAt: "2026-01-01T00:00:00.000Z", ...extra })}\n\n`;

describe("switchboard events tail", () => {
  it("reconnects after a drop with Last-Event-ID and continues where it stopped", async () => {
    const { url, requests } = await startServer((req, res, attempt) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (attempt === 1) {
        res.write(": connected\n\n");
        res.write(sseEvent(1, "call.requested", { tool: "a__b", callId: "c1" }));
        // One event split across two chunks: the reader must join them.
        const second = sseEvent(2, "call.approval_required", { tool: "a__b", callId: "c1" });
        res.write(second.slice(0, 20));
        setTimeout(() => {
          res.write(second.slice(20));
          // The retry hint keeps the test fast; then the connection drops mid-stream.
          res.write("retry: 50\n\n");
          setTimeout(() => req.socket.destroy(), 50);
        }, 50);
      } else {
        res.write(`event: gap\ndata: ${JSON.stringify({ lastEventId: 2 })}\n\n`);
        res.write(sseEvent(3, "call.approved", { tool: "a__b", callId: "c1" }));
      }
    });

    const result = await runTail(url, ["--type", "call.", "--server", "demo", "--count", "3", "--json"]);

    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.id, e.type])).toEqual([
      [1, "call.requested"],
      [2, "call.approval_required"],
      [3, "call.approved"],
    ]);
    expect(result.stderr).toContain("Connection lost; reconnecting after event 2");
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers["last-event-id"]).toBeUndefined();
    expect(requests[1]?.headers["last-event-id"]).toBe("2");
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(requests[0]?.url).toBe("/api/v1/events/stream?server=demo&type=call.");
  });

  it("--since resumes from that id on the first connection; people get one line per event", async () => {
    const { url, requests } = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        sseEvent(41, "server.state_changed", { serverName: "github", from: "connecting", to: "ready" }),
      );
    });
    const result = await runTail(url, ["--since", "40", "--count", "1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]?.headers["last-event-id"]).toBe("40");
    expect(result.stdout).toMatch(
      /^2026-01-01 00:00:00Z {2}#41 +server\.state_changed +github connecting → ready\n$/,
    );
  });

  it("a refused key is not retried: exit 3 with the server's message", async () => {
    const { url, requests } = await startServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "unauthenticated", message: "The API key is not valid." } }));
    });
    const result = await runTail(url, ["--count", "1"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe("error: The API key is not valid.\n");
    expect(requests).toHaveLength(1);
  });
});

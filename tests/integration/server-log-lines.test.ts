import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * server.mjs writes its own lines before the runtime's logger exists (where it listens, or why it
 * cannot): they follow SWITCHBOARD_LOG_LEVEL and SWITCHBOARD_LOG_FORMAT like every other line. The
 * real script, on a port already taken, so it stops at its first line.
 */

let taken: Server;
let port: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => {
  taken.close();
});

function startOnTakenPort(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [path.join(process.cwd(), "server.mjs")], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env,
    },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

describe("server.mjs's own log lines", () => {
  it("are JSON lines by default, and the process exits non-zero", () => {
    const { status, output } = startOnTakenPort({});
    expect(status).not.toBe(0);
    const line = JSON.parse(output.split("\n")[0] ?? "");
    expect(line).toMatchObject({ level: "fatal", name: "switchboard" });
    expect(line.msg).toContain(`cannot listen on 127.0.0.1:${port}`);
  });

  it("are pretty text with SWITCHBOARD_LOG_FORMAT=pretty", () => {
    const { output } = startOnTakenPort({ SWITCHBOARD_LOG_FORMAT: "pretty" });
    expect(output).toMatch(/FATAL.*cannot listen on 127\.0\.0\.1/);
    expect(output.startsWith("{")).toBe(false);
  });

  it("are left out under SWITCHBOARD_LOG_LEVEL=silent", () => {
    const { status, output } = startOnTakenPort({ SWITCHBOARD_LOG_LEVEL: "silent" });
    expect(status).not.toBe(0);
    expect(output).toBe("");
  });
});

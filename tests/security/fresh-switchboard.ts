import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/*
 * A Switchboard of a test's own, on a fresh data folder and a free loopback port: for attacks on
 * what happens once per installation (first-run setup) or that would leave the shared security
 * server unusable for the other specs (an address locked out of signing in). Needs `next build`.
 */

export type FreshSwitchboard = { baseURL: string; dataDir: string; stop: () => Promise<void> };

export async function startFreshSwitchboard(
  name: string,
  env: Record<string, string> = {},
): Promise<FreshSwitchboard> {
  const port = await freePort();
  const dataDir = path.resolve(".data", `security-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const log = openSync(path.resolve(".data", `security-${name}.log`), "w");
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: process.cwd(),
    // Its own process group, so stopping it also stops the stdio servers it started.
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      SWITCHBOARD_DATA_DIR: dataDir,
      ...env,
    },
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = () => stopGroup(child);
  try {
    await untilHealthy(baseURL, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, dataDir, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function untilHealthy(baseURL: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The Switchboard under test exited (${child.exitCode}).`);
    const ok = await fetch(`${baseURL}/api/v1/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

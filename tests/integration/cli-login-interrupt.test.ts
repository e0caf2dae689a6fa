import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { cliBin } from "../fixtures/run-cli";

/*
 * `switchboard login` on a real terminal (a pseudo-terminal from util-linux `script`), against a
 * server that never answers, interrupted with Ctrl-C the way a person gives up on it. The spinner
 * must not leave "⠋ Checking …" with the shell's next prompt glued to the end of its line.
 */

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function startSilentServer(): Promise<{ url: string; requested: Promise<void> }> {
  let onRequest = () => {};
  const requested = new Promise<void>((resolve) => {
    onRequest = resolve;
  });
  server = http.createServer(() => onRequest()); // takes the request, never answers
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested };
}

type Run = { output: string; code: number | null };

/** Runs the CLI inside a pseudo-terminal, types Ctrl-C once the server has the request. */
function loginInterrupted(url: string, requested: Promise<void>): Promise<Run> {
  const command = [process.execPath, cliBin, "login", "--url", url, "--api-key", `sb_${"k".repeat(43)}`]
    .map((word) => `'${word}'`)
    .join(" ");
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: os.tmpdir(),
    XDG_CONFIG_HOME: path.join(os.tmpdir(), `switchboard-cli-${process.pid}`),
    NO_COLOR: "1",
    TERM: "xterm",
  };
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  // Ctrl-C typed on the terminal: its line discipline sends SIGINT to the CLI.
  void requested.then(() => child.stdin.write("\u0003"));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ output, code }));
  });
}

describe("switchboard login on a terminal", () => {
  it("ends its line when interrupted while checking, and exits as interrupted", async () => {
    const { url, requested } = await startSilentServer();
    const { output, code } = await loginInterrupted(url, requested);
    expect(code).toBe(130);
    // What the terminal shows last: the check, said to be interrupted, and then a new line.
    const lastLine = output.split("\r").at(-2) ?? "";
    expect(stripVTControlCharacters(lastLine)).toBe(`Checking ${url}… interrupted.`);
    expect(output.endsWith("\n")).toBe(true);
  }, 60_000);
});

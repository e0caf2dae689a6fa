import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { e2eBootstrapKey } from "../../playwright.config";
import { cliBin, type RunOptions, runCli } from "../fixtures/run-cli";

/**
 * Runs the real `switchboard` binary (bin/switchboard.mjs) as a child process against the e2e
 * server, the way a person or a script would. Each test gets its own config folder, so `login`
 * never touches the real ~/.config.
 */

export type CliOptions = { env?: Record<string, string | undefined> } & RunOptions;
export { runCli };

export function makeConfigHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cli-"));
}

/** The environment of a CLI run: the e2e server and its bootstrap (admin + gateway) key, no colour. */
export function cliEnv(
  baseURL: string,
  configHome: string,
  extra: CliOptions["env"] = {},
): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: configHome,
    XDG_CONFIG_HOME: configHome,
    NO_COLOR: "1",
    SWITCHBOARD_URL: baseURL,
    SWITCHBOARD_API_KEY: e2eBootstrapKey,
  };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env as NodeJS.ProcessEnv;
}

/** A long-running command (events tail, a call waiting for approval): read its output as it comes. */
export class BackgroundCli {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [cliBin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout?.on("data", (chunk) => {
      this.stdout += chunk;
    });
    this.child.stderr?.on("data", (chunk) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.on("close", resolve));
  }

  /** Resolves when stdout or stderr matches. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.stdout) && !pattern.test(this.stderr)) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${pattern}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
  }
}

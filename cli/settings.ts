import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError, ExitCode } from "./errors";

/**
 * Where the CLI finds Switchboard and its key: a flag, then the environment, then what
 * `switchboard login` saved, then the local default.
 */

export const DEFAULT_URL = "http://localhost:3000";

export type Connection = { url: string; apiKey: string | undefined };
type Saved = { url?: string; apiKey?: string };

/** $XDG_CONFIG_HOME/switchboard/config.json, or ~/.config/switchboard/config.json. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), ".config");
  return path.join(base, "switchboard", "config.json");
}

export function readSavedConfig(file = configFilePath()): Saved {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return {};
  }
  try {
    const value = JSON.parse(text) as Saved;
    return {
      url: typeof value.url === "string" ? value.url : undefined,
      apiKey: typeof value.apiKey === "string" ? value.apiKey : undefined,
    };
  } catch {
    throw new CliError(`${file} is not valid JSON; fix it or run switchboard login again.`);
  }
}

/** Written 0600 in a 0700 folder: the file holds an admin key. */
export function saveConfig(saved: Saved, file = configFilePath()): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

export function removeSavedConfig(file = configFilePath()): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

export function resolveConnection(
  flags: { url?: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): Connection {
  const url = flags.url ?? (env.SWITCHBOARD_URL || undefined);
  const apiKey = flags.apiKey ?? (env.SWITCHBOARD_API_KEY || undefined);
  // The saved file is read only when needed: a broken one must not block explicit flags.
  const saved = url && apiKey ? {} : readSavedConfig(configFilePath(env));
  return { url: normalizeUrl(url ?? saved.url ?? DEFAULT_URL), apiKey: apiKey ?? saved.apiKey };
}

export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`"${url}" is not a URL; use e.g. http://localhost:3000.`, ExitCode.usage);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new CliError(`"${url}" must start with http:// or https://.`, ExitCode.usage);
  }
  return parsed.toString().replace(/\/+$/, "");
}

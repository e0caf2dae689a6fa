import { type Command, InvalidArgumentError } from "commander";
import { ApiClient } from "./api-client";
import { type Colors, stdoutColors } from "./output";
import { resolveConnection } from "./settings";

export type CommandContext = { client: ApiClient; json: boolean; colors: Colors };

/**
 * What every command needs, from its own options and the program's (--url, --api-key).
 * `--json` is declared per command rather than on the program: `call` gives it a value.
 */
export function contextOf(command: Command): CommandContext {
  const options = command.optsWithGlobals<{ url?: string; apiKey?: string; json?: unknown }>();
  return {
    client: new ApiClient(resolveConnection({ url: options.url, apiKey: options.apiKey })),
    json: options.json === true,
    colors: stdoutColors(),
  };
}

export function withJsonOption(command: Command): Command {
  return command.option("--json", "print JSON (for scripts) instead of text");
}

/** `--env KEY=VALUE` style options, collected into an object; a missing "=" is a usage error. */
export function collectPairs(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const at = value.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`expected NAME=VALUE, got "${value}".`);
  return [...previous, [value.slice(0, at), value.slice(at + 1)]];
}

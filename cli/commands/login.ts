import type { Command } from "commander";
import { ApiClient } from "../api-client";
import { usageError } from "../errors";
import { print } from "../output";
import { readSecret } from "../prompt";
import { configFilePath, removeSavedConfig, resolveConnection, saveConfig } from "../settings";
import { withSpinner } from "../spinner";

/** `login` checks the key against the server before saving it, so a typo fails now, not later. */
export function registerLogin(program: Command): void {
  program
    .command("login")
    .description("check a URL and an admin API key, and save both for later commands (file mode 0600)")
    .addHelpText(
      "after",
      `
Saved to $XDG_CONFIG_HOME/switchboard/config.json (or ~/.config/switchboard/config.json).
The key is asked for (hidden) when --api-key and SWITCHBOARD_API_KEY are not given; piped input
works too:  echo "$KEY" | switchboard login --url https://switchboard.example.com`,
    )
    .action(async (_options, command: Command) => {
      const flags = command.optsWithGlobals<{ url?: string; apiKey?: string }>();
      const resolved = resolveConnection(flags);
      // A key saved earlier is not reused: logging in means giving the key to check and keep.
      const given = flags.apiKey || process.env.SWITCHBOARD_API_KEY;
      const apiKey = (given ?? (await readSecret("API key: "))).trim();
      if (!apiKey) throw usageError("No API key given; nothing saved.");
      const client = new ApiClient({ url: resolved.url, apiKey });
      await withSpinner(`Checking ${resolved.url}…`, () => client.get("/api/v1/servers"));
      saveConfig({ url: resolved.url, apiKey });
      print(`Logged in to ${resolved.url}. Saved to ${configFilePath()}.`);
    });

  program
    .command("logout")
    .description("forget the saved URL and key")
    .action(() => {
      print(removeSavedConfig() ? `Removed ${configFilePath()}.` : "Nothing was saved.");
    });
}

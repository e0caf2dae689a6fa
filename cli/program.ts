import { Command } from "commander";
import { registerAgent } from "./commands/agent";
import { registerAllowRules } from "./commands/allow-rules";
import { registerApprovals } from "./commands/approvals";
import { registerAudit } from "./commands/audit";
import { registerCall } from "./commands/call";
import { registerCalls } from "./commands/calls";
import { registerEvents } from "./commands/events";
import { registerGateway } from "./commands/gateway";
import { registerImportExport } from "./commands/import-export";
import { registerInstance } from "./commands/instance";
import { registerKeys } from "./commands/keys";
import { registerLogin } from "./commands/login";
import { registerMembers } from "./commands/members";
import { registerPolicy } from "./commands/policy";
import { registerPrincipals } from "./commands/principals";
import { registerQuestions } from "./commands/questions";
import { registerSecrets } from "./commands/secrets";
import { registerServers } from "./commands/servers";
import { registerStats } from "./commands/stats";
import { registerTools } from "./commands/tools";
import { exitCodeHelp } from "./errors";
import { DEFAULT_URL } from "./settings";

export function buildProgram(version: string): Command {
  const program = new Command("switchboard");
  // Before any subcommand is added, so they all inherit it: usage errors become exit code 2, not 1.
  program.exitOverride();
  program
    .description("Manage a Switchboard (MCP control plane) from the terminal, through its REST API.")
    .version(version, "-v, --version", "print the CLI version")
    .option("--url <url>", `Switchboard's URL (env SWITCHBOARD_URL; default ${DEFAULT_URL})`)
    .option("--api-key <key>", "an admin API key (env SWITCHBOARD_API_KEY, or saved by `switchboard login`)")
    .showHelpAfterError("(add --help for usage)")
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Every command that prints data takes --json for scripts. Colour only on a terminal; set NO_COLOR
to turn it off.

${exitCodeHelp}

Examples:
  $ switchboard login --url http://localhost:3000
  $ switchboard servers list
  $ switchboard import claude_desktop_config.json --dry-run
  $ switchboard call local-tools__echo --arg text=hello
  $ switchboard events tail --type call.approval_required`,
    );

  registerLogin(program);
  registerServers(program);
  registerTools(program);
  registerCall(program);
  registerCalls(program);
  registerApprovals(program);
  registerAllowRules(program);
  registerQuestions(program);
  registerAgent(program);
  registerEvents(program);
  registerPrincipals(program);
  registerGateway(program);
  registerPolicy(program);
  registerKeys(program);
  registerMembers(program);
  registerInstance(program);
  registerAudit(program);
  registerStats(program);
  registerSecrets(program);
  registerImportExport(program);
  return program;
}

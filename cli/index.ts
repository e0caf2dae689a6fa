import { readFileSync } from "node:fs";
import { CommanderError } from "commander";
import { CliError, ExitCode } from "./errors";
import { stderrColors } from "./output";
import { buildProgram } from "./program";

/**
 * The `switchboard` CLI. Runs through bin/switchboard.mjs (tsx), talks only to the REST API of a
 * running Switchboard, and ends with the documented exit code.
 */
async function main(argv: string[]): Promise<number> {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  const program = buildProgram(packageJson.version);
  try {
    await program.parseAsync(argv);
    return ExitCode.ok;
  } catch (error) {
    return handleError(error);
  }
}

function handleError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help / version that was asked for).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.ok;
    return ExitCode.usage;
  }
  const red = stderrColors().red;
  if (error instanceof CliError) {
    process.stderr.write(`${red("error:")} ${error.message}\n`);
    return error.exitCode;
  }
  process.stderr.write(`${red("error:")} unexpected failure: ${(error as Error)?.stack ?? String(error)}\n`);
  return ExitCode.error;
}

// Output may still be flushing to a pipe: set the code and let Node exit when it is done.
process.exitCode = await main(process.argv);

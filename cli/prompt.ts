import fs from "node:fs";
import readline from "node:readline/promises";
import password from "@inquirer/password";
import { CliError, usageError } from "./errors";

/** A yes/no question on the terminal; anything but y/yes is no. */
export async function confirm(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/**
 * Whether a destructive command may go ahead: `--yes`, or a "y" on the terminal. Without a
 * terminal to ask on, and without --yes, it is a usage error (a script must say so).
 */
export async function confirmedOrYes(question: string, options: { yes?: boolean }): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) throw usageError("Pass --yes to do this without a terminal to confirm on.");
  return confirm(question);
}

/**
 * Reads a secret: hidden on a terminal (nothing echoed), or the first line of piped input, so
 * `echo "$KEY" | switchboard login` works in scripts. The terminal prompt is @inquirer/password:
 * readline's line editing, so arrow keys move the cursor instead of typing "[A" into the key.
 */
export async function readSecret(question: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine();
  // Ctrl-D is end of input: nothing more is coming, so there is no key to read. (Left to readline,
  // it closes the line with no answer and the process just ends, silently, in the middle of login.)
  const endOfInput = new AbortController();
  const onKeypress = (_: string, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl && key.name === "d") endOfInput.abort();
  };
  process.stdin.on("keypress", onKeypress);
  try {
    // On stderr, like every other prompt: stdout carries only what a command prints.
    return await password(
      { message: question.trimEnd(), mask: false },
      { output: process.stderr, signal: endOfInput.signal },
    );
  } catch (error) {
    // Ctrl-C (ExitPromptError) or Ctrl-D (AbortPromptError).
    if (error instanceof Error && /^(Exit|Abort)PromptError$/.test(error.name))
      throw new CliError("Cancelled.");
    throw error;
  } finally {
    process.stdin.off("keypress", onKeypress);
  }
}

async function readFirstLine(): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin });
  try {
    for await (const line of rl) return line.trim();
    return "";
  } finally {
    rl.close();
  }
}

/** All of stdin. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A file the person named, or stdin for "-" (`switchboard import -`, `instance policy set -`). */
export async function readInput(file: string): Promise<string> {
  if (file === "-") return readStdin();
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
    throw new CliError(`Cannot read ${file}: ${why}.`);
  }
}

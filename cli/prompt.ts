import fs from "node:fs";
import readline from "node:readline/promises";
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
 * `echo "$KEY" | switchboard login` works in scripts.
 */
export async function readSecret(question: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine();
  process.stderr.write(question);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let value = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        for (const char of chunk.toString("utf8")) {
          if (char === "\r" || char === "\n") {
            process.stdin.off("data", onData);
            return resolve(value);
          }
          if (char === "\u0003") {
            process.stdin.off("data", onData);
            return reject(new CliError("Cancelled."));
          }
          if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
          else if (char >= " ") value += char;
        }
      };
      process.stdin.on("data", onData);
    });
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stderr.write("\n");
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

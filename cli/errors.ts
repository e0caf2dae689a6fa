/** The documented exit codes (docs/cli.md, `switchboard --help`). Scripts branch on them. */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  unreachable: 4,
  toolError: 5,
  denied: 6,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeHelp = `Exit codes:
  0  success
  1  error: the request failed (the server's message is printed)
  2  usage: unknown command or option, missing or malformed argument
  3  authentication: no API key, or the key was refused or lacks the permission
  4  unreachable: nothing answered at the Switchboard URL (the URL is printed)
  5  tool error: the call ran and the tool failed or returned an error
  6  denied: refused by policy (grants, the instance or egress policy) or an approver, or an
     approval expired`;

/** An error meant for the person at the terminal: one line, and the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.error,
    /** the HTTP status, when the server answered */
    readonly status?: number,
    /** the server's per-field messages, when it gave any (`fieldErrors` of its error body) */
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export const usageError = (message: string) => new CliError(message, ExitCode.usage);

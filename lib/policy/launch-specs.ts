import fs from "node:fs";
import path from "node:path";

/**
 * Launch specs: which programs a stdio server may start, with which arguments. A spec names a
 * program (resolved on Switchboard's own PATH, never the server's) and an argument pattern of
 * literals the owner wrote and placeholders the registrant fills:
 *
 *   {package}             one npm/PyPI package name, optionally with a version (no paths, URLs, flags)
 *   {file}                one path that is not an option
 *   {image}               one container image reference
 *   {docker-run-options}  the options of `docker run` before the image (checked below)
 *
 * `rest` lets further arguments follow. What the registrant chose (placeholders and the rest) is
 * then checked for options that turn an interpreter into a code runner (`node -e`, `npx -c`,
 * `python -c`, `bash -c`, `docker run --privileged`…); an exact spec — no placeholder, no rest —
 * is what an owner allowed word for word and is not second-guessed.
 */

// ── programs ─────────────────────────────────────────────────────────────────────────────────

/**
 * A program name found on Switchboard's PATH (relative PATH entries skipped), or an absolute path
 * to an executable file; undefined when there is none. Never looks at a server's own env.PATH.
 */
export function resolveProgram(command: string, searchPath = process.env.PATH ?? ""): string | undefined {
  if (path.isAbsolute(command)) return isExecutableFile(command) ? path.normalize(command) : undefined;
  if (command.includes("/") || command === "." || command === "..") return undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether two resolved programs are the same file (`/usr/bin/node` and the link to it alike). */
export function sameProgram(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

// ── options that run code ────────────────────────────────────────────────────────────────────

type ProgramRule = {
  /** Options that run code given on the command line or load code the caller picks. */
  refused: readonly string[];
  /** Options whose value is the next argument (so that argument is not the first positional). */
  takesValue?: readonly string[];
  /** When set, only these options may be chosen: the program's options are open-ended (npm, docker). */
  onlyAllowed?: readonly string[];
  /** Positionals that keep the program's options going (`docker run …`, `uv run …`). */
  subcommands?: readonly string[];
  /** Subcommands that run code given on the command line (`deno eval`). */
  refusedSubcommands?: readonly string[];
  /**
   * Any long option without `=` may take the next argument as its value (`node --input-type module
   * -e …`): the options go on past it. Errs on the side of reading more as options.
   */
  longOptionsMayTakeValues?: boolean;
};

const NODE: ProgramRule = {
  refused: [
    "-e",
    "--eval",
    "-p",
    "--print",
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-i",
    "--interactive",
    "--inspect",
    "--inspect-brk",
    "--inspect-wait",
    "--inspect-port",
    "--env-file",
    "--env-file-if-exists",
    "--run",
    "--openssl-config",
    "--experimental-config-file",
  ],
  takesValue: ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"],
  longOptionsMayTakeValues: true,
};
const SHELL: ProgramRule = { refused: ["-c", "-i", "--init-file", "--rcfile"] };
const NPM_FAMILY: ProgramRule = {
  refused: ["-c", "--call", "-p", "--package"],
  onlyAllowed: ["-y", "--yes", "-q", "--quiet", "--silent"],
  subcommands: ["exec", "x"],
};
const UV_FAMILY: ProgramRule = {
  refused: ["--with", "--from", "--with-requirements"],
  onlyAllowed: ["-q", "--quiet", "--offline", "--isolated", "--no-progress"],
  subcommands: ["run", "tool"],
};
const DOCKER: ProgramRule = {
  refused: ["--privileged", "-v", "--volume", "--mount", "--pid", "--cap-add", "--device", "--entrypoint"],
  takesValue: ["-e", "--env", "--name", "--pull"],
  onlyAllowed: [
    "-i",
    "-t",
    "-it",
    "-ti",
    "--interactive",
    "--tty",
    "--rm",
    "--init",
    "-e",
    "--env",
    "--name",
    "--pull",
  ],
  subcommands: ["run"],
};

const RULES: Record<string, ProgramRule> = {
  node: NODE,
  nodejs: NODE,
  bun: {
    refused: ["-e", "--eval", "-p", "--print", "-r", "--preload"],
    takesValue: ["-r", "--preload"],
    longOptionsMayTakeValues: true,
  },
  deno: {
    refused: ["--eval"],
    subcommands: ["run"],
    refusedSubcommands: ["eval", "repl"],
    longOptionsMayTakeValues: true,
  },
  python: { refused: ["-c", "-i", "-m"], takesValue: ["-W", "-X"] },
  perl: { refused: ["-e", "-E", "-M", "-m", "-d", "-I"] },
  ruby: { refused: ["-e", "-r", "-I"] },
  php: { refused: ["-r", "-d", "-c", "-a"] },
  bash: SHELL,
  sh: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  fish: SHELL,
  npx: NPM_FAMILY,
  npm: NPM_FAMILY,
  pnpm: NPM_FAMILY,
  pnpx: NPM_FAMILY,
  yarn: NPM_FAMILY,
  bunx: NPM_FAMILY,
  uvx: UV_FAMILY,
  uv: UV_FAMILY,
  docker: DOCKER,
  podman: DOCKER,
  env: { refused: ["-S", "--split-string", "-C", "--chdir"], takesValue: ["-u", "--unset"] },
};

function ruleFor(program: string): { name: string; rule: ProgramRule } | undefined {
  const name = path.basename(program).replace(/^(python)[\d.]*$/, "$1");
  const rule = RULES[name];
  return rule ? { name, rule } : undefined;
}

/**
 * The first argument the registrant chose that would make a program run code of their choosing,
 * described for a person; undefined when there is none. Follows nested programs: in
 * `npx -y node -e …` the `-e` is node's.
 */
export function findCodeRunningArgument(
  program: string,
  args: readonly string[],
  chosen: readonly boolean[],
): string | undefined {
  let current = ruleFor(program);
  let inOptions = true;
  let skipValue = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const isChosen = chosen[i] === true;
    if (skipValue) {
      skipValue = false;
      continue;
    }
    // `env NODE_OPTIONS=… node x.js`: an assignment changes what the next program runs.
    if (isChosen && current?.name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      return `\`env ${arg.split("=")[0]}=…\` sets the environment of the program it starts`;
    }
    const nested = ruleFor(arg);
    if (!current || !inOptions || arg === "--") {
      // Past a program's options only another program can bring options back.
      if (arg === "--") inOptions = false;
      else if (nested && !arg.startsWith("-")) [current, inOptions] = [nested, true];
      continue;
    }
    const { name, rule } = current;
    if (arg.startsWith("-") && arg !== "-") {
      const refusal = isChosen ? refusedOption(name, rule, arg) : undefined;
      if (refusal) return refusal;
      const takesValue =
        rule.takesValue?.includes(arg) || (rule.longOptionsMayTakeValues && arg.startsWith("--"));
      if (!arg.includes("=") && takesValue) skipValue = true;
      continue;
    }
    if (rule.refusedSubcommands?.includes(arg) && isChosen) {
      return `\`${name} ${arg}\` runs code given on the command line`;
    }
    if (rule.subcommands?.includes(arg)) continue;
    if (nested) [current, inOptions] = [nested, true];
    else inOptions = false;
  }
  return undefined;
}

function refusedOption(name: string, rule: ProgramRule, arg: string): string | undefined {
  const option = arg.split("=")[0] as string;
  if (rule.onlyAllowed && !rule.onlyAllowed.includes(option)) {
    return rule.refused.includes(option)
      ? `\`${name} ${option}\` runs code or reaches the host outside what was allowed`
      : `\`${option}\` is not one of the ${name} options a workspace may choose (${rule.onlyAllowed.join(", ")})`;
  }
  if (rule.refused.includes(option)) return `\`${name} ${option}\` runs code given on the command line`;
  // A cluster of short options (`-pe`, python's `-cCODE`): any refused letter refuses it.
  if (!arg.startsWith("--")) {
    for (const letter of arg.slice(1)) {
      if (!/[A-Za-z]/.test(letter)) break;
      if (rule.refused.includes(`-${letter}`)) {
        return `\`${name} -${letter}\` (in \`${arg}\`) runs code given on the command line`;
      }
    }
  }
  return undefined;
}

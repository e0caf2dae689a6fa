/**
 * What a server's configuration may take from, and put into, an environment. Two lists:
 *
 * - variables that change *what runs* (a preloaded module, a library, a search path, an npm
 *   registry, a shell start-up file): refused in a stdio server's `env` unless the instance policy
 *   allows that name;
 * - Switchboard's own settings (its secret key, its database, its bootstrap key): never readable
 *   through `{"fromEnv": …}`, whatever a policy says.
 *
 * Names are compared without regard to case: npm reads `npm_config_*` in any case, and refusing
 * `path` as well as `PATH` costs nobody anything.
 */

const LAUNCH_VARIABLES = new Set([
  "PATH",
  "HOME",
  "SHELL",
  "ENV",
  "BASH_ENV",
  "ZDOTDIR",
  "IFS",
  "PROMPT_COMMAND",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "GCONV_PATH",
  "GLIBC_TUNABLES",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
]);
const LAUNCH_VARIABLE_PREFIXES = [
  "LD_",
  "DYLD_",
  "PYTHON",
  "NPM_CONFIG_",
  "YARN_",
  "PNPM_",
  "BUN_",
  "DENO_",
  "UV_",
  "PIP_",
  "GEM_",
  "BUNDLE_",
  "DOCKER_",
  "GIT_",
];

/** Whether setting this variable for a child changes which code it runs. */
export function isLaunchVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return LAUNCH_VARIABLES.has(upper) || LAUNCH_VARIABLE_PREFIXES.some((p) => upper.startsWith(p));
}

const OWN_SETTINGS = new Set(["DATABASE_URL", "HOST", "PORT"]);
const OWN_SETTING_PREFIXES = ["SWITCHBOARD_", "PG", "BETTER_AUTH_", "NEXT_", "OTEL_"];

/** Switchboard's own configuration: never read for a server, never listable by an owner. */
export function isOwnSetting(name: string): boolean {
  const upper = name.toUpperCase();
  return OWN_SETTINGS.has(upper) || OWN_SETTING_PREFIXES.some((p) => upper.startsWith(p));
}

/** Shown where the lists are edited, so a person knows what each one guards. */
export const LAUNCH_VARIABLE_SUMMARY =
  "PATH, HOME, NODE_OPTIONS, NODE_PATH, LD_*, DYLD_*, PYTHON*, NPM_CONFIG_*, UV_*, PIP_*, DOCKER_*, GIT_*, BASH_ENV, ENV, PERL5OPT, RUBYOPT, JAVA_TOOL_OPTIONS and the like";
export const OWN_SETTING_SUMMARY =
  "SWITCHBOARD_*, DATABASE_URL, PG*, BETTER_AUTH_*, NEXT_*, OTEL_*, HOST, PORT";

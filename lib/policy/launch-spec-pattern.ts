/**
 * Launch specs as data: the shape, the placeholders and the argument-pattern match. No Node.js
 * imports, so the dashboard's components show and check specs with the very rules the server uses
 * (lib/policy/launch-specs.ts resolves programs and judges what runs).
 */

export type LaunchSpec = {
  program: string;
  args: string[];
  rest: boolean;
  audience: "owners" | "everyone";
  why: string;
};

export const PLACEHOLDERS = ["{package}", "{file}", "{image}", "{docker-run-options}"] as const;

export const isPlaceholder = (arg: string) => (PLACEHOLDERS as readonly string[]).includes(arg);

export const isExactSpec = (spec: Pick<LaunchSpec, "args" | "rest">) =>
  !spec.rest && !spec.args.some(isPlaceholder);

/** The spec as a person reads it: `npx -y {package} …`. */
export const formatSpec = (spec: Pick<LaunchSpec, "program" | "args" | "rest">) =>
  [spec.program, ...spec.args, ...(spec.rest ? ["…"] : [])].join(" ");

// ── argument patterns ────────────────────────────────────────────────────────────────────────

const PACKAGE = /^(@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*(\[[\w,.-]+\])?((@|==|>=|<=|~=)[\w.^~*+<>=-]+)?$/;
const IMAGE = /^[a-z0-9][a-z0-9._/:@-]*$/;

/** `docker run` options that take the next argument as their value (matching only; the check is below). */
const DOCKER_VALUE_OPTIONS = new Set([
  "-e",
  "--env",
  "--name",
  "--pull",
  "-v",
  "--volume",
  "--mount",
  "-u",
  "--user",
  "--network",
  "--net",
  "--pid",
  "--ipc",
  "--uts",
  "--userns",
  "--cap-add",
  "--device",
  "--security-opt",
  "-w",
  "--workdir",
  "--entrypoint",
  "-p",
  "--publish",
  "--platform",
  "--env-file",
  "-l",
  "--label",
]);

type ArgsMatch = { ok: true; chosen: boolean[] } | { ok: false };

/** Matches args against a pattern; `chosen[i]` tells whether args[i] was the registrant's choice. */
export function matchArgs(pattern: readonly string[], rest: boolean, args: readonly string[]): ArgsMatch {
  const chosen: boolean[] = [];
  let i = 0;
  for (const token of pattern) {
    if (token === "{docker-run-options}") {
      while (i < args.length && (args[i] as string).startsWith("-")) {
        const option = args[i] as string;
        chosen[i++] = true;
        if (!option.includes("=") && DOCKER_VALUE_OPTIONS.has(option) && i < args.length) chosen[i++] = true;
      }
      continue;
    }
    const arg = args[i];
    if (arg === undefined) return { ok: false };
    const fits =
      token === "{package}"
        ? PACKAGE.test(arg)
        : token === "{file}"
          ? !arg.startsWith("-") && arg.length > 0 && !arg.includes("\0")
          : token === "{image}"
            ? IMAGE.test(arg)
            : arg === token;
    if (!fits) return { ok: false };
    chosen[i++] = isPlaceholder(token);
  }
  if (i < args.length && !rest) return { ok: false };
  while (i < args.length) chosen[i++] = true;
  return { ok: true, chosen };
}

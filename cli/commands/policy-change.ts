import type { ApiClient } from "../api-client";
import { CliError, ExitCode } from "../errors";
import type { LaunchSpecWire, PolicyChangeWire } from "../wire-types";

/**
 * Saving a policy that servers depend on (the instance policy, a workspace's egress policy). A
 * narrower policy that would refuse registered servers is refused (409, the servers listed) unless
 * the person asks for them to be disabled: `--disable-affected`, `?disableAffected=true` on the wire.
 */

export const disableAffectedHelp =
  "save even if registered servers no longer fit: disable them, each with a diagnostic saying why";

export async function putPolicy<P>(
  client: ApiClient,
  path: string,
  policy: P,
  options: { disableAffected?: boolean; what: string },
): Promise<{ policy: P; disabledServers: string[] }> {
  try {
    const body = await client.put<PolicyChangeWire<P>>(
      path,
      policy,
      options.disableAffected ? { disableAffected: true } : undefined,
    );
    return { policy: body.policy, disabledServers: body.disabledServers ?? [] };
  } catch (error) {
    const affected =
      error instanceof CliError && error.status === 409 ? error.fieldErrors?.affectedServers : [];
    if (!affected || affected.length === 0) throw error;
    const servers = affected.length === 1 ? "a registered server" : `${affected.length} registered servers`;
    throw new CliError(
      [
        `Nothing was saved: the ${options.what} would refuse ${servers}:`,
        ...affected.map((line) => `  ${line}`),
        "Change the policy, or rerun with --disable-affected to save it and disable these servers.",
      ].join("\n"),
      ExitCode.error,
      409,
      error instanceof CliError ? error.fieldErrors : undefined,
    );
  }
}

/** The servers a saved policy disabled, one a line; nothing when there were none. */
export function disabledLines(disabled: readonly string[]): string[] {
  if (disabled.length === 0) return [];
  return [
    `Disabled ${disabled.length === 1 ? "1 server" : `${disabled.length} servers`} the policy no longer allows:`,
    ...disabled.map((name) => `  ${name}`),
  ];
}

/** A launch spec as a person reads it: `npx -y {package} …`. */
export const formatLaunchSpec = (spec: Pick<LaunchSpecWire, "program" | "args" | "rest">) =>
  [spec.program, ...spec.args, ...(spec.rest ? ["…"] : [])].join(" ");

export const audienceOf = (spec: Pick<LaunchSpecWire, "audience">) =>
  spec.audience === "everyone" ? "everyone" : "owners only";

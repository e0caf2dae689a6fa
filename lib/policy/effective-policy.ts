import { classifyAddress, isInAllowedAddresses } from "./address-class";
import type { EgressPolicy } from "./egress-schema";
import type { InstancePolicy } from "./instance-policy-schema";
import type { LaunchSpec } from "./launch-spec-pattern";
import { resolveProgram, sameProgram } from "./launch-specs";

/**
 * What a workspace's servers may do, all things considered: the instance policy narrowed by the
 * workspace's egress policy. Shown beside both (Settings → Egress and Settings → Instance), so
 * nobody has to intersect two lists in their head. The check itself (server-policy.ts) runs both
 * policies in turn; this is the same rule, said once as data.
 */
export type EffectivePolicy = {
  http: {
    allowedSchemes: Array<"https" | "http">;
    allowLoopback: boolean;
    allowPrivate: boolean;
    /** The workspace's explicitly allowed addresses or ranges that the instance allows too. */
    allowAddresses: string[];
    allowHosts: string[];
    denyHosts: string[];
  };
  /** The launch specs whose program the workspace also allows. */
  launchSpecs: LaunchSpec[];
  /** Variables `{"fromEnv": …}` may read. */
  fromEnv: string[];
  /** Variables that change what runs, a server's env may still set. */
  allowedEnv: string[];
  cwdRoots: string[];
};

export function effectivePolicy(instance: InstancePolicy, workspace: EgressPolicy): EffectivePolicy {
  const workspacePrograms = workspace.stdio.allowedCommands.map((c) => ({ c, path: resolveProgram(c) }));
  const launchSpecs = instance.stdio.launchSpecs.filter((spec) => {
    const program = resolveProgram(spec.program);
    return workspacePrograms.some(
      ({ c, path }) =>
        c === spec.program || (path !== undefined && program !== undefined && sameProgram(path, program)),
    );
  });
  return {
    http: {
      allowedSchemes: workspace.http.allowedSchemes.filter((s) => instance.http.allowedSchemes.includes(s)),
      allowLoopback: workspace.http.allowLoopback && instance.http.allowLoopback,
      allowPrivate: workspace.http.allowPrivate && instance.http.allowPrivate,
      allowAddresses: workspace.http.allowAddresses.filter((entry) => instanceAllows(instance, entry)),
      allowHosts: workspace.http.allowHosts,
      denyHosts: [...new Set([...instance.http.denyHosts, ...workspace.http.denyHosts])],
    },
    launchSpecs,
    fromEnv: instance.fromEnv.allowed,
    allowedEnv: instance.stdio.allowedEnv,
    cwdRoots: instance.stdio.cwdRoots,
  };
}

/** Whether the instance floor lets through an entry of a workspace's allowed addresses (judged by its first address). */
function instanceAllows(instance: InstancePolicy, entry: string): boolean {
  const address = entry.split("/")[0] ?? entry;
  if (isInAllowedAddresses(instance.http.allowAddresses, address)) return true;
  switch (classifyAddress(address)) {
    case "public":
      return true;
    case "loopback":
      return instance.http.allowLoopback;
    case "private":
      return instance.http.allowPrivate;
    default:
      return false;
  }
}

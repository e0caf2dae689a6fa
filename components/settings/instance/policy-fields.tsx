import type { ComponentProps } from "react";
import { FieldErrors, LinesField } from "@/components/ui/field";
import { LAUNCH_VARIABLE_SUMMARY, OWN_SETTING_SUMMARY } from "@/lib/policy/stdio-environment";
import type { InstancePolicy } from "@/lib/policy/types";
import { HttpReachChoices } from "../http-reach-choices";
import { SettingsSection } from "./settings-section";

/** The instance policy's fields other than launch specs, as named form controls (read on Save). */

/** An error lookup by policy path: "fromEnv.allowed" → its messages, entries quoted. */
export type ErrorsAt = (path: string) => string[];

/** A policy list field: its errors looked up by the policy path. */
function ListField({
  path,
  errorsAt,
  ...props
}: Omit<ComponentProps<typeof LinesField>, "errors"> & { path: string; errorsAt: ErrorsAt }) {
  return <LinesField {...props} errors={errorsAt(path)} />;
}

export function EnvironmentSection({ policy, errorsAt }: { policy: InstancePolicy; errorsAt: ErrorsAt }) {
  return (
    <SettingsSection
      id="environment"
      title="Environment"
      why="Some variables decide which code a program runs, and Switchboard's own environment holds its keys: a server's configuration reaches neither unless you list it here."
    >
      <div className="grid gap-6 lg:grid-cols-3">
        <ListField
          id="allowedEnv"
          path="stdio.allowedEnv"
          label="Launch variables a server's env may set"
          hint={`One per line. Without it, a stdio server's env may not set ${LAUNCH_VARIABLE_SUMMARY}.`}
          values={policy.stdio.allowedEnv}
          errorsAt={errorsAt}
          placeholder="NODE_OPTIONS"
        />
        <ListField
          id="fromEnvAllowed"
          path="fromEnv.allowed"
          label="Variables servers may read from Switchboard's environment"
          hint={
            <>
              One per line: what <code className="font-mono">{'{"fromEnv": "NAME"}'}</code> may read (nothing
              by default). Never Switchboard&apos;s own settings: {OWN_SETTING_SUMMARY}.
            </>
          }
          values={policy.fromEnv.allowed}
          errorsAt={errorsAt}
          placeholder="GITHUB_TOKEN"
        />
        <ListField
          id="cwdRoots"
          path="stdio.cwdRoots"
          label="Working folders"
          hint="One absolute folder per line: a stdio server's working directory must lie inside one of them."
          values={policy.stdio.cwdRoots}
          errorsAt={errorsAt}
          placeholder="/srv/mcp"
        />
      </div>
    </SettingsSection>
  );
}

export function EgressFloorSection({ policy, errorsAt }: { policy: InstancePolicy; errorsAt: ErrorsAt }) {
  return (
    <SettingsSection
      id="egress-floor"
      title="Egress floor"
      why="Where HTTP servers may be reached from this machine. No workspace can allow more than this: a workspace's Settings → Egress only narrows it."
    >
      <div className="grid gap-6 sm:grid-cols-2">
        <div className="space-y-4">
          <HttpReachChoices http={policy.http} schemeErrors={errorsAt("http.allowedSchemes")} />
          <p className="text-xs text-slate-500">
            Link-local and cloud-metadata addresses are always refused.
          </p>
        </div>
        <ListField
          id="floorAllowAddresses"
          path="http.allowAddresses"
          label="Allowed addresses"
          hint="One per line: an IP address or range (10.1.2.0/24, 198.18.0.0/15) allowed whatever its kind. Metadata and link-local addresses stay refused."
          values={policy.http.allowAddresses}
          errorsAt={errorsAt}
        />
        <ListField
          id="floorDenyHosts"
          path="http.denyHosts"
          label="Denied hosts"
          hint="One per line: mcp.example.com, *.example.com or an IP address. Refused in every workspace."
          values={policy.http.denyHosts}
          errorsAt={errorsAt}
        />
      </div>
    </SettingsSection>
  );
}

export function WorkspaceCreationSection({
  policy,
  errorsAt,
}: {
  policy: InstancePolicy;
  errorsAt: ErrorsAt;
}) {
  const options = [
    { value: "owners", label: "Instance owners only", hint: "Everyone else joins by invitation." },
    { value: "members", label: "Any signed-in member", hint: "They become the new workspace's admin." },
  ] as const;
  return (
    <SettingsSection
      id="workspace-creation"
      title="Workspace creation"
      why="Whoever creates a workspace becomes its admin and may register servers there, within this policy."
    >
      <fieldset>
        <legend className="sr-only">Who may create workspaces</legend>
        <div className="space-y-2 text-sm">
          {options.map((option) => (
            <label key={option.value} className="flex items-start gap-2">
              <input
                type="radio"
                name="workspaceCreation"
                value={option.value}
                defaultChecked={policy.workspaceCreation === option.value}
                className="mt-1"
              />
              <span>
                <span className="font-medium text-slate-800">{option.label}</span>
                <span className="block text-xs text-slate-500">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldErrors errors={errorsAt("workspaceCreation")} />
      </fieldset>
    </SettingsSection>
  );
}

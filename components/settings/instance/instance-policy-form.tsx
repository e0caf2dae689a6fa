"use client";

import { type FormEvent, useRef, useState } from "react";
import { updateInstancePolicyAction } from "@/app/(dashboard)/settings/instance/actions";
import { Button } from "@/components/ui/button";
import type { InstancePolicy, InstancePolicyInput } from "@/lib/policy/types";
import { AffectedServers, errorsAt, SaveMessage, useGuardedPolicySave } from "./guarded-policy-save";
import { LaunchSpecsEditor, type SpecRow } from "./launch-specs-editor";
import { EgressFloorSection, EnvironmentSection, WorkspaceCreationSection } from "./policy-fields";

const lines = (text: FormDataEntryValue | null) =>
  String(text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The paths of the policy some part of this form shows errors for. */
const SHOWN_PATHS = [
  "workspaceCreation",
  "stdio.launchSpecs",
  "stdio.allowedEnv",
  "stdio.cwdRoots",
  "fromEnv.allowed",
  "http.allowedSchemes",
  "http.denyHosts",
  "http.allowAddresses",
];
const LIST_PATHS = [
  "stdio.allowedEnv",
  "stdio.cwdRoots",
  "fromEnv.allowed",
  "http.denyHosts",
  "http.allowAddresses",
] as const;

/**
 * The instance policy, sent whole on Save (as its schema expects): launch specs, environment,
 * egress floor, workspace creation. A save that would refuse registered servers lists them first.
 */
export function InstancePolicyForm({ policy }: { policy: InstancePolicy }) {
  const [specs, setSpecs] = useState<SpecRow[]>(() =>
    policy.stdio.launchSpecs.map((spec) => ({ ...spec, key: crypto.randomUUID() })),
  );
  // What was last sent: errors name list entries by index; a person knows them by their text.
  const sent = useRef<{ specKeys: string[]; lists: Partial<Record<string, string[]>> }>({
    specKeys: [],
    lists: {},
  });
  const { errors, message, affected, isPending, save, saveDisablingAffected, dismissAffected } =
    useGuardedPolicySave({
      saved: "Saved. Every workspace's servers follow this policy from their next start or connect.",
      marked: "Nothing was saved: correct the entries marked above.",
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      workspaceCreation: String(
        form.get("workspaceCreation") ?? "owners",
      ) as InstancePolicy["workspaceCreation"],
      stdio: {
        launchSpecs: specs.map(({ key: _key, ...spec }) => spec),
        allowedEnv: lines(form.get("allowedEnv")),
        cwdRoots: lines(form.get("cwdRoots")),
      },
      fromEnv: { allowed: lines(form.get("fromEnvAllowed")) },
      http: {
        allowedSchemes: form.getAll("allowedSchemes").map(String) as InstancePolicy["http"]["allowedSchemes"],
        allowLoopback: form.get("allowLoopback") === "on",
        allowPrivate: form.get("allowPrivate") === "on",
        denyHosts: lines(form.get("floorDenyHosts")),
        allowAddresses: lines(form.get("floorAllowAddresses")),
      },
    } satisfies InstancePolicyInput;
    sent.current = {
      specKeys: specs.map((s) => s.key),
      lists: {
        "stdio.allowedEnv": input.stdio.allowedEnv,
        "stdio.cwdRoots": input.stdio.cwdRoots,
        "fromEnv.allowed": input.fromEnv.allowed,
        "http.denyHosts": input.http.denyHosts,
        "http.allowAddresses": input.http.allowAddresses,
      },
    };
    save(
      (disableAffected) => updateInstancePolicyAction(input, disableAffected),
      (field) => SHOWN_PATHS.some((path) => field === path || field.startsWith(`${path}.`)),
    );
  };

  const at = (path: string) =>
    errorsAt(
      errors,
      path,
      (LIST_PATHS as readonly string[]).includes(path) ? sent.current.lists[path] : undefined,
    );

  return (
    // The page scrolls focus clear of the sticky Save bar (scroll padding on <html>, while this form is there).
    <form
      onSubmit={submit}
      noValidate
      aria-label="Instance policy"
      className="space-y-6 [html:has(&)]:scroll-pb-24"
    >
      {/* min-w-0: a fieldset is at least as wide as its widest line (min-content), wider than a phone */}
      <fieldset disabled={isPending} className="min-w-0 space-y-6">
        <LaunchSpecsEditor
          specs={specs}
          saved={policy.stdio.launchSpecs}
          onChange={setSpecs}
          errors={errors}
          sentKeys={sent.current.specKeys}
        />
        <EnvironmentSection policy={policy} errorsAt={at} />
        <EgressFloorSection policy={policy} errorsAt={at} />
        <WorkspaceCreationSection policy={policy} errorsAt={at} />
      </fieldset>
      {affected ? (
        <AffectedServers
          servers={affected}
          isPending={isPending}
          onDisable={saveDisablingAffected}
          onDismiss={dismissAffected}
        />
      ) : null}
      <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-slate-50/95 px-1 py-3 backdrop-blur">
        <div className="mr-auto min-w-0 flex-1">
          <SaveMessage message={message} />
        </div>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Saving…" : "Save instance policy"}
        </Button>
      </div>
    </form>
  );
}

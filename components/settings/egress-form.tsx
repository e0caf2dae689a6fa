"use client";

import { type FormEvent, useRef } from "react";
import { updateEgressPolicyAction } from "@/app/(dashboard)/settings/actions";
import { LinesField } from "@/components/ui/field";
import type { EgressPolicy } from "@/lib/policy/types";
import { HttpReachChoices } from "./http-reach-choices";
import { AffectedServers, errorsAt, SaveMessage, useGuardedPolicySave } from "./instance/guarded-policy-save";
import { PolicyFormFooter } from "./policy-form";

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The fields that show their own errors, by their path in the policy. */
const FIELD_PATHS = [
  "stdio.allowedCommands",
  "http.allowHosts",
  "http.denyHosts",
  "http.allowAddresses",
] as const;
type FieldPath = (typeof FIELD_PATHS)[number];

/** The workspace's egress policy; read-only for non-admins. */
export function EgressForm({ policy, canManage }: { policy: EgressPolicy; canManage: boolean }) {
  const { errors, message, affected, isPending, save, saveDisablingAffected, dismissAffected } =
    useGuardedPolicySave({
      saved: "Saved. New connections use this policy.",
      marked: "Nothing was saved: correct the entries marked below.",
    });
  // What was last sent, by field: an error names an entry by index; a person knows it by its text.
  const submitted = useRef<Partial<Record<FieldPath, string[]>>>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      stdio: { allowedCommands: lines(String(form.get("allowedCommands"))) },
      http: {
        allowedSchemes: form.getAll("allowedSchemes").map(String),
        allowHosts: lines(String(form.get("allowHosts"))),
        denyHosts: lines(String(form.get("denyHosts"))),
        allowLoopback: form.get("allowLoopback") === "on",
        allowPrivate: form.get("allowPrivate") === "on",
        allowAddresses: lines(String(form.get("allowAddresses"))),
      },
    };
    submitted.current = {
      "stdio.allowedCommands": input.stdio.allowedCommands,
      "http.allowHosts": input.http.allowHosts,
      "http.allowAddresses": input.http.allowAddresses,
      "http.denyHosts": input.http.denyHosts,
    };
    save(
      (disableAffected) => updateEgressPolicyAction(input, disableAffected),
      (field) => FIELD_PATHS.some((path) => field.startsWith(path)),
    );
  };

  /** The errors of one field; an entry's error quotes the entry ("http.allowHosts.2" → "x y": …). */
  const err = (path: FieldPath) => errorsAt(errors, path, submitted.current[path]);

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <p className="text-sm text-slate-600">
        Checked when a server is registered and again at every connect, on the addresses a host name resolves
        to. Link-local and cloud-metadata addresses are always refused.
      </p>
      <SaveMessage message={message} />
      <fieldset disabled={!canManage || isPending} className="grid gap-6 sm:grid-cols-2">
        <LinesField
          id="allowedCommands"
          label="Allowed stdio commands"
          errors={err("stdio.allowedCommands")}
          hint="One per line; matched exactly (node allows node on PATH, not /tmp/node)."
          rows={8}
          values={policy.stdio.allowedCommands}
        />
        <div className="space-y-4">
          <HttpReachChoices http={policy.http} />
        </div>
        <LinesField
          id="allowAddresses"
          label="Allowed addresses"
          errors={err("http.allowAddresses")}
          hint="One per line: an IP address or range (10.1.2.0/24) allowed whatever its kind, within the instance policy. Metadata and link-local addresses stay refused."
          rows={2}
          values={policy.http.allowAddresses}
        />
        <LinesField
          id="allowHosts"
          label="Allowed hosts"
          errors={err("http.allowHosts")}
          hint="One per line: mcp.example.com, *.example.com, or * for any."
          rows={4}
          values={policy.http.allowHosts}
        />
        <LinesField
          id="denyHosts"
          label="Denied hosts"
          errors={err("http.denyHosts")}
          hint="Refused even when an allowed pattern matches."
          rows={4}
          values={policy.http.denyHosts}
        />
      </fieldset>
      {affected ? (
        <AffectedServers
          servers={affected}
          isPending={isPending}
          onDisable={saveDisablingAffected}
          onDismiss={dismissAffected}
        />
      ) : null}
      <PolicyFormFooter canManage={canManage} isPending={isPending} label="Save policy" />
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState, useTransition } from "react";
import { updateEgressPolicyAction } from "@/app/(dashboard)/settings/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, TextArea } from "@/components/ui/field";
import type { FieldErrors } from "@/lib/errors";
import type { EgressPolicy } from "@/lib/policy/egress-schema";

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The fields that show their own errors, by their path in the policy. */
const FIELD_PATHS = ["stdio.allowedCommands", "http.allowHosts", "http.denyHosts"] as const;

const valueAt = (input: Record<string, unknown>, path: string): unknown[] | undefined => {
  const value = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], input);
  return Array.isArray(value) ? value : undefined;
};

/** The workspace's egress policy; read-only for non-admins. */
export function EgressForm({ policy, canManage }: { policy: EgressPolicy; canManage: boolean }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "error" | "info"; text: string } | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  // What was last sent: a field error names an entry by index; the person sees it by its text.
  const submitted = useRef<Record<string, unknown>>({});

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
      },
    };
    submitted.current = input;
    startTransition(async () => {
      const result = await updateEgressPolicyAction(input);
      const fieldErrors = result.ok ? {} : (result.error.fieldErrors ?? {});
      setErrors(fieldErrors);
      const besideFields = FIELD_PATHS.some((path) =>
        Object.keys(fieldErrors).some((k) => k.startsWith(path)),
      );
      setMessage(
        result.ok
          ? { tone: "info", text: "Saved. New connections use this policy." }
          : {
              tone: "error",
              text: besideFields
                ? "Nothing was saved: correct the entries marked below."
                : result.error.message,
            },
      );
      if (result.ok) router.refresh();
    });
  };

  /** The errors of one field; an entry's error quotes the entry ("http.allowHosts.2" → "x y": …). */
  const err = (path: (typeof FIELD_PATHS)[number]) =>
    Object.entries(errors)
      .filter(([key]) => key.startsWith(path))
      .flatMap(([key, messages]) => {
        const index = /\.(\d+)$/.exec(key)?.[1];
        const entry = index === undefined ? undefined : valueAt(submitted.current, path)?.[Number(index)];
        return typeof entry === "string" ? messages.map((m) => `"${entry}": ${m}`) : messages;
      });

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
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <fieldset disabled={!canManage || isPending} className="grid gap-6 sm:grid-cols-2">
        <Field
          id="allowedCommands"
          label="Allowed stdio commands"
          errors={err("stdio.allowedCommands")}
          hint="One per line; matched exactly (node allows node on PATH, not /tmp/node)."
        >
          <TextArea
            id="allowedCommands"
            name="allowedCommands"
            invalid={err("stdio.allowedCommands").length > 0}
            rows={8}
            defaultValue={policy.stdio.allowedCommands.join("\n")}
          />
        </Field>
        <div className="space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">URL schemes</legend>
            <div className="mt-1 flex gap-4 text-sm">
              {(["https", "http"] as const).map((scheme) => (
                <label key={scheme} className="flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    name="allowedSchemes"
                    value={scheme}
                    defaultChecked={policy.http.allowedSchemes.includes(scheme)}
                  />
                  {scheme}
                </label>
              ))}
            </div>
          </fieldset>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="allowLoopback" defaultChecked={policy.http.allowLoopback} />
            Allow loopback addresses (this machine: 127.0.0.0/8, ::1)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="allowPrivate" defaultChecked={policy.http.allowPrivate} />
            Allow private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7)
          </label>
        </div>
        <Field
          id="allowHosts"
          label="Allowed hosts"
          errors={err("http.allowHosts")}
          hint="One per line: mcp.example.com, *.example.com, or * for any."
        >
          <TextArea
            id="allowHosts"
            name="allowHosts"
            invalid={err("http.allowHosts").length > 0}
            rows={4}
            defaultValue={policy.http.allowHosts.join("\n")}
          />
        </Field>
        <Field
          id="denyHosts"
          label="Denied hosts"
          errors={err("http.denyHosts")}
          hint="Refused even when an allowed pattern matches."
        >
          <TextArea
            id="denyHosts"
            name="denyHosts"
            invalid={err("http.denyHosts").length > 0}
            rows={4}
            defaultValue={policy.http.denyHosts.join("\n")}
          />
        </Field>
      </fieldset>
      {canManage ? (
        <div className="flex justify-end">
          <Button type="submit" disabled={isPending}>
            {isPending ? "Saving…" : "Save policy"}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

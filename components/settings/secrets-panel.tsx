"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState, useTransition } from "react";
import { deleteSecretAction, putSecretAction } from "@/app/(dashboard)/settings/actions";
import { Alert, FormError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, TextInput } from "@/components/ui/field";
import { Time } from "@/components/ui/time";
import type { FieldErrors } from "@/lib/errors";
import type { SecretOverviewEntry } from "@/lib/secrets/types";

/**
 * Settings → Secrets: values go in, never come out. A server refers to a secret by name; one whose
 * value is missing cannot connect, so those are listed first with a way to set them.
 */
export function SecretsPanel({ entries, canManage }: { entries: SecretOverviewEntry[]; canManage: boolean }) {
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const valueInput = useRef<HTMLInputElement>(null);
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = String(new FormData(form).get("value") ?? "");
    startTransition(async () => {
      const result = await putSecretAction({ name, value });
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        setSaved(null);
        return;
      }
      setErrors({});
      setMessage(null);
      setSaved(`${result.data.created ? "Stored" : "Replaced"} the value of ${result.data.name}.`);
      setName("");
      form.reset();
      router.refresh();
    });
  };

  const editValueOf = (secretName: string) => {
    setName(secretName);
    setSaved(null);
    valueInput.current?.focus();
  };

  return (
    <>
      {canManage ? (
        <section className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="text-sm font-semibold text-slate-900">Set a secret</h2>
          <p className="mt-1 text-sm text-slate-600">
            Servers refer to it by name (<code className="font-mono">{'{"secret": "github-token"}'}</code>);
            the value is encrypted at rest, given to the server at connect time, and never shown again.
          </p>
          <form
            onSubmit={submit}
            noValidate
            className="mt-3 flex flex-wrap items-start gap-4"
            autoComplete="off"
          >
            <div className="w-64">
              <Field id="secret-name" label="Name" errors={errors.name}>
                <TextInput
                  id="secret-name"
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  placeholder="github-token"
                  invalid={!!errors.name}
                />
              </Field>
            </div>
            <div className="w-80">
              <Field id="secret-value" label="Value" errors={errors.value}>
                <TextInput
                  ref={valueInput}
                  id="secret-value"
                  name="value"
                  type="password"
                  autoComplete="new-password"
                  invalid={!!errors.value}
                />
              </Field>
            </div>
            <div className="pt-6">
              <Button type="submit" disabled={isPending}>
                {isPending ? "Saving…" : "Save secret"}
              </Button>
            </div>
          </form>
          <FormError message={message} fieldErrors={errors} />
          {saved ? (
            <p role="status" className="mt-3 text-sm text-emerald-700">
              {saved}
            </p>
          ) : null}
        </section>
      ) : null}
      {entries.length === 0 ? (
        <EmptyState title="No secrets yet">
          Store an API token here, then refer to it by name in a server's environment, headers or auth.
        </EmptyState>
      ) : (
        <DataTable
          columns={[
            { label: "Name" },
            { label: "Value" },
            { label: "Used by" },
            { label: "Updated" },
            { label: "Actions", srOnly: true },
          ]}
        >
          {entries.map((entry) => (
            <tr key={entry.name} data-testid={`secret-${entry.name}`}>
              <td className="px-4 py-3 font-mono text-xs text-slate-900">{entry.name}</td>
              <td className="px-4 py-3">
                {entry.isSet ? <Badge tone="green">Set</Badge> : <Badge tone="red">Missing</Badge>}
              </td>
              <td className="px-4 py-3 text-slate-700">
                {entry.usedBy.length === 0 ? (
                  <span className="text-slate-500">no server</span>
                ) : (
                  entry.usedBy.map((server, index) => (
                    <span key={server}>
                      {index > 0 ? ", " : null}
                      <Link
                        href={`/servers/${encodeURIComponent(server)}`}
                        className="text-indigo-700 hover:underline"
                      >
                        {server}
                      </Link>
                    </span>
                  ))
                )}
              </td>
              <td className="px-4 py-3 text-slate-600">
                {entry.updatedAt ? <Time iso={entry.updatedAt} /> : "—"}
              </td>
              <td className="px-4 py-3 text-right">
                {canManage ? (
                  <div className="flex justify-end gap-1">
                    <Button
                      variant="ghost"
                      onClick={() => editValueOf(entry.name)}
                      aria-label={`${entry.isSet ? "Replace" : "Set"} the value of ${entry.name}`}
                    >
                      {entry.isSet ? "Replace" : "Set value"}
                    </Button>
                    {entry.isSet ? <DeleteSecretButton name={entry.name} usedBy={entry.usedBy} /> : null}
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {!canManage ? (
        <div className="mt-4">
          <Alert tone="info">Only admins set or delete secrets.</Alert>
        </div>
      ) : null}
    </>
  );
}

function DeleteSecretButton({ name, usedBy }: { name: string; usedBy: string[] }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete"
      ariaLabel={`Delete ${name}`}
      title={`Delete the secret "${name}"?`}
      confirmLabel="Delete secret"
      pendingLabel="Deleting…"
      onConfirm={confirmAction(
        () => deleteSecretAction(name),
        () => router.refresh(),
      )}
    >
      {usedBy.length > 0
        ? `${usedBy.join(", ")} ${usedBy.length === 1 ? "uses" : "use"} it: the next connection will fail until a value is set again.`
        : "No server uses it. The value cannot be recovered."}
    </ConfirmButton>
  );
}

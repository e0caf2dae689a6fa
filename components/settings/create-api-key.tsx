"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { createApiKeyAction } from "@/app/(dashboard)/settings/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import { OneTimeValue } from "@/components/ui/one-time-value";
import type { FieldErrors } from "@/lib/errors";

/** Creates a key and shows its value exactly once. */
export function CreateApiKey() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [createdKey, setCreatedKey] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { name: String(form.get("name") ?? ""), scopes: form.getAll("scopes").map(String) };
    startTransition(async () => {
      const result = await createApiKeyAction(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      setErrors({});
      setMessage(null);
      setCreatedKey(result.data.key);
      router.refresh();
    });
  };

  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold text-slate-900">Create an API key</h2>
      <p className="mt-1 text-sm text-slate-600">
        <strong>admin</strong> keys manage this workspace through the REST API and CLI, with at most your own
        role: if you stop being an admin here, the key stops too. Agents reach{" "}
        <code className="font-mono">/mcp</code> with a principal&apos;s key (Principals).
      </p>
      <form onSubmit={submit} noValidate className="mt-3 flex flex-wrap items-start gap-4">
        <div className="w-64">
          <Field id="key-name" label="Name" errors={errors.name}>
            <TextInput id="key-name" name="name" placeholder="ci-deploy" invalid={!!errors.name} />
          </Field>
        </div>
        <fieldset className="pt-6">
          <legend className="sr-only">Scopes</legend>
          <div className="flex gap-4 text-sm">
            <label className="flex items-center gap-1.5">
              <input type="checkbox" name="scopes" value="admin" defaultChecked /> admin
            </label>
          </div>
          {errors.scopes ? <p className="mt-1 text-xs text-red-700">{errors.scopes.join(" ")}</p> : null}
        </fieldset>
        <div className="pt-6">
          <Button type="submit" disabled={isPending}>
            {isPending ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
      <FormError message={message} fieldErrors={errors} />
      {createdKey ? (
        <OneTimeValue
          value={createdKey}
          label="New API key"
          usage={
            <>
              Send it as <code className="font-mono">Authorization: Bearer …</code> to the REST API or set{" "}
              <code className="font-mono">SWITCHBOARD_API_KEY</code> for the CLI.
            </>
          }
          onDismiss={() => setCreatedKey(null)}
        />
      ) : null}
    </section>
  );
}

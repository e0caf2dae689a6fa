"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState, useTransition } from "react";
import { createModelConnectionAction } from "@/app/(dashboard)/agent/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import type { FieldErrors as Errors } from "@/lib/errors";
import { agentKeys } from "./agent-queries";

/**
 * Adding a model connection (admins): any OpenAI-compatible chat-completions endpoint. The API key is
 * one of the workspace's secrets, chosen by name; its value never reaches this page.
 */
export function ModelConnectionForm({ secretNames }: { secretNames: string[] }) {
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const secret = String(data.get("apiKeySecret") ?? "");
    const input = {
      name: String(data.get("name") ?? ""),
      baseUrl: String(data.get("baseUrl") ?? ""),
      model: String(data.get("model") ?? ""),
      apiKeySecret: secret === "" ? null : secret,
    };
    startTransition(async () => {
      const result = await createModelConnectionAction(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        setAdded(null);
        return;
      }
      setErrors({});
      setMessage(null);
      setAdded(result.data.name);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: agentKeys.connections() });
    });
  };

  return (
    <form onSubmit={submit} noValidate autoComplete="off" aria-label="Add a model connection">
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="connection-name" label="Name" errors={errors.name} required>
          <TextInput id="connection-name" name="name" placeholder="local-llama" invalid={!!errors.name} />
        </Field>
        <Field
          id="connection-baseUrl"
          label="Base URL"
          errors={errors.baseUrl}
          required
          hint="Up to the version, e.g. https://api.openai.com/v1; checked against the egress policy."
        >
          <TextInput
            id="connection-baseUrl"
            name="baseUrl"
            type="url"
            placeholder="http://localhost:11434/v1"
            invalid={!!errors.baseUrl}
          />
        </Field>
        <Field id="connection-model" label="Model" errors={errors.model} required>
          <TextInput id="connection-model" name="model" placeholder="llama3.1" invalid={!!errors.model} />
        </Field>
        <Field
          id="connection-apiKeySecret"
          label="API key"
          errors={errors.apiKeySecret}
          hint={
            secretNames.length === 0
              ? "No secrets in this workspace yet: add one in Settings → Secrets if the endpoint needs a key."
              : "Sent as the bearer token; read from the secret at each request."
          }
        >
          <select
            id="connection-apiKeySecret"
            name="apiKeySecret"
            defaultValue=""
            className={inputClass}
            aria-invalid={errors.apiKeySecret ? true : undefined}
          >
            <option value="">None (the endpoint needs no key)</option>
            {secretNames.map((name) => (
              <option key={name} value={name}>
                Secret {name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={isPending}>
          {isPending ? "Adding…" : "Add model connection"}
        </Button>
        {added ? (
          <span role="status" className="text-sm text-emerald-700">
            Added {added}.
          </span>
        ) : null}
      </div>
      <FormError message={message} fieldErrors={errors} />
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/action-result";
import type { FieldErrors } from "@/lib/errors";

export type CredentialField = {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  hint?: string;
};

/** A small form for sign-in, first-run setup and joining: posts its fields to one server action. */
export function CredentialsForm({
  fields,
  submitLabel,
  pendingLabel,
  action,
  redirectTo,
}: {
  fields: CredentialField[];
  submitLabel: string;
  pendingLabel: string;
  action: (input: Record<string, string>) => Promise<ActionResult<null>>;
  redirectTo: string;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = Object.fromEntries(
      [...new FormData(event.currentTarget).entries()].map(([k, v]) => [k, String(v)]),
    );
    startTransition(async () => {
      const result = await action(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      router.push(redirectTo);
      router.refresh();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {/* Field errors say it beside their fields; the alert is for what no field carries. */}
      {message && Object.keys(errors).length === 0 ? <Alert>{message}</Alert> : null}
      {fields.map((field, index) => (
        <Field
          key={field.name}
          id={field.name}
          label={field.label}
          errors={errors[field.name]}
          hint={field.hint}
        >
          <TextInput
            id={field.name}
            name={field.name}
            type={field.type ?? "text"}
            autoComplete={field.autoComplete}
            autoFocus={index === 0}
            invalid={!!errors[field.name]}
          />
        </Field>
      ))}
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState, useTransition } from "react";
import { createPrincipalKeyAction } from "@/app/(dashboard)/principals/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import { OneTimeValue } from "@/components/ui/one-time-value";
import type { FieldErrors } from "@/lib/errors";
import { principalKeys } from "./principal-queries";

/** A gateway-only key for the principal (the service never gives an agent's key admin rights). */
export function CreatePrincipalKey({ principalId, autoFocus }: { principalId: string; autoFocus?: boolean }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [createdKey, setCreatedKey] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = String(new FormData(formElement).get("name") ?? "").trim();
    startTransition(async () => {
      const result = await createPrincipalKeyAction(principalId, { name });
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      setErrors({});
      setMessage(null);
      setCreatedKey(result.data.key);
      formElement.reset();
      void queryClient.invalidateQueries({ queryKey: principalKeys.all });
    });
  };

  return (
    <div>
      <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-3">
        <div className="w-64">
          <Field id="principal-key-name" label="Key name" errors={errors.name}>
            <TextInput
              id="principal-key-name"
              name="name"
              placeholder="laptop, ci, prod…"
              autoComplete="off"
              // Arriving from "create principal", the key is the next step.
              autoFocus={autoFocus}
              invalid={!!errors.name}
            />
          </Field>
        </div>
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
          label="New gateway key"
          usage={
            <>
              Use it as <code className="font-mono">Authorization: Bearer …</code> on{" "}
              <code className="font-mono">/mcp</code> or <code className="font-mono">POST /api/v1/calls</code>
              .
            </>
          }
          onDismiss={() => setCreatedKey(null)}
        />
      ) : null}
    </div>
  );
}

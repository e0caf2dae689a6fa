"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { createPrincipalAction } from "@/app/(dashboard)/principals/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import type { FieldErrors } from "@/lib/errors";
import { principalKeys } from "./principal-queries";

/** Step one of onboarding an agent; its page then offers the key (shown once) and the grants. */
export function CreatePrincipal() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    const input = { name: String(form.get("name") ?? "").trim(), description: description || null };
    startTransition(async () => {
      const result = await createPrincipalAction(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: principalKeys.all });
      router.push(`/principals/${encodeURIComponent(result.data.id)}?created=1`);
    });
  };

  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold text-slate-900">New principal</h2>
      <p className="mt-1 text-sm text-slate-600">
        An agent or MCP client. Next you give it a key and grant it tools — until then it can call nothing.
      </p>
      <form onSubmit={submit} noValidate className="mt-3 flex flex-wrap items-start gap-4">
        <div className="w-56">
          <Field id="principal-name" label="Name" required errors={errors.name}>
            <TextInput
              id="principal-name"
              name="name"
              placeholder="claude-code"
              autoComplete="off"
              required
              invalid={!!errors.name}
            />
          </Field>
        </div>
        <div className="min-w-64 flex-1">
          <Field id="principal-description" label="Description" errors={errors.description}>
            <TextInput
              id="principal-description"
              name="description"
              placeholder="Who runs it, and what for"
              invalid={!!errors.description}
            />
          </Field>
        </div>
        <div className="pt-6">
          <Button type="submit" disabled={isPending}>
            {isPending ? "Creating…" : "Create principal"}
          </Button>
        </div>
      </form>
      <FormError message={message} fieldErrors={errors} />
    </section>
  );
}

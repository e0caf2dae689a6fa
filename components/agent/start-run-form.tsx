"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { startAgentRunAction } from "@/app/(dashboard)/agent/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import type { FieldErrors as Errors } from "@/lib/errors";
import { agentKeys, type ModelConnectionDto } from "./agent-queries";

export type PrincipalOption = { id: string; name: string };

/** The limits a run starts with unless changed: the service's defaults (lib/agents/agent-runs.ts). */
const limitFields = [
  { name: "maxRounds", label: "Max rounds", min: 1, max: 10, value: 3, hint: "Model turns, 1–10." },
  { name: "maxToolCalls", label: "Max tool calls", min: 1, max: 50, value: 10, hint: "In all, 1–50." },
  { name: "timeoutSeconds", label: "Time limit (s)", min: 5, max: 3600, value: 300, hint: "5–3600 seconds." },
] as const;

/** Starting a run: as which principal, on which model, the prompt and its limits; then to its page. */
export function StartRunForm({
  principals,
  connections,
}: {
  principals: PrincipalOption[];
  connections: ModelConnectionDto[];
}) {
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const queryClient = useQueryClient();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input: Record<string, unknown> = {
      principal: String(data.get("principal") ?? ""),
      model: String(data.get("model") ?? ""),
      prompt: String(data.get("prompt") ?? ""),
    };
    for (const field of limitFields) {
      const value = String(data.get(field.name) ?? "").trim();
      // Sent as typed (a number, or the text itself) so the service's message names what is wrong.
      if (value !== "") input[field.name] = Number.isNaN(Number(value)) ? value : Number(value);
    }
    startTransition(async () => {
      const result = await startAgentRunAction(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      setErrors({});
      setMessage(null);
      await queryClient.invalidateQueries({ queryKey: agentKeys.runs() });
      router.push(`/agent/runs/${result.data.id}`);
    });
  };

  return (
    <section
      aria-labelledby="start-run-title"
      className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="start-run-title" className="text-sm font-semibold text-slate-900">
        Start a run
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The model may call only the tools the principal is granted, each through the governed path: the
        approval rules apply and every call is recorded.
      </p>
      <form onSubmit={submit} noValidate autoComplete="off" className="mt-4 grid gap-4 md:grid-cols-2">
        <Field id="run-principal" label="Principal" errors={errors.principal} required>
          <select
            id="run-principal"
            name="principal"
            className={inputClass}
            aria-invalid={errors.principal ? true : undefined}
          >
            {principals.map((principal) => (
              <option key={principal.id} value={principal.id}>
                {principal.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="run-model" label="Model connection" errors={errors.model} required>
          <select
            id="run-model"
            name="model"
            className={inputClass}
            aria-invalid={errors.model ? true : undefined}
          >
            {connections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.name} ({connection.model})
              </option>
            ))}
          </select>
        </Field>
        <div className="md:col-span-2">
          <Field id="run-prompt" label="Prompt" errors={errors.prompt} required>
            <textarea
              id="run-prompt"
              name="prompt"
              rows={4}
              maxLength={20_000}
              placeholder="What should the agent do?"
              className={inputClass}
              aria-invalid={errors.prompt ? true : undefined}
              aria-describedby={errors.prompt ? "run-prompt-error" : undefined}
            />
          </Field>
        </div>
        <fieldset className="grid gap-4 sm:grid-cols-3 md:col-span-2">
          <legend className="mb-2 text-sm font-medium text-slate-800">Limits</legend>
          {limitFields.map((field) => (
            <Field
              key={field.name}
              id={`run-${field.name}`}
              label={field.label}
              errors={errors[field.name]}
              hint={field.hint}
            >
              <TextInput
                id={`run-${field.name}`}
                name={field.name}
                type="number"
                inputMode="numeric"
                min={field.min}
                max={field.max}
                defaultValue={field.value}
                invalid={!!errors[field.name]}
              />
            </Field>
          ))}
        </fieldset>
        <div className="md:col-span-2">
          <Button type="submit" disabled={isPending}>
            {isPending ? "Starting…" : "Start run"}
          </Button>
        </div>
      </form>
      <FormError message={message} fieldErrors={errors} />
    </section>
  );
}

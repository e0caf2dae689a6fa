"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { isRecord, textOf } from "@/components/ui/format";
import type { CatalogEntryDto } from "@/lib/catalog/types";
import { ArgumentInput } from "./argument-input";

/**
 * A prompt's arguments as a form, required ones marked and checked before asking; the server's
 * own problems (serverErrors, by `arguments.<name>`) show beside their fields too.
 */

type Argument = { name: string; description: string | null; required: boolean };

const argumentsOf = (prompt: CatalogEntryDto): Argument[] =>
  (Array.isArray(prompt.definition.arguments) ? prompt.definition.arguments : [])
    .filter(isRecord)
    .flatMap((arg) => {
      const name = textOf(arg.name);
      return name ? [{ name, description: textOf(arg.description), required: arg.required === true }] : [];
    });

export function PromptForm({
  prompt,
  serverId,
  canRun,
  isRunning,
  serverErrors,
  onGet,
}: {
  prompt: CatalogEntryDto;
  serverId: string;
  canRun: boolean;
  isRunning: boolean;
  serverErrors: Record<string, string[]>;
  onGet: (args: Record<string, string>) => void;
}) {
  const args = argumentsOf(prompt);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const description = textOf(prompt.definition.description);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = args.filter((arg) => arg.required && !values[arg.name]).map((arg) => arg.name);
    setErrors(Object.fromEntries(missing.map((name) => [name, ["Required."]])));
    if (missing.length > 0) return document.getElementById(`prompt-arg-${missing[0]}`)?.focus();
    onGet(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")));
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Prompt arguments" className="mt-3">
      {description ? <p className="whitespace-pre-line text-sm text-slate-600">{description}</p> : null}
      <div className="mt-4 space-y-3">
        {args.length === 0 ? <p className="text-sm text-slate-500">This prompt takes no arguments.</p> : null}
        {args.map((arg) => (
          <ArgumentInput
            key={arg.name}
            id={`prompt-arg-${arg.name}`}
            name={arg.name}
            description={arg.description}
            required={arg.required}
            value={values[arg.name] ?? ""}
            errors={errors[arg.name] ?? serverErrors[`arguments.${arg.name}`]}
            onChange={(value) => setValues((current) => ({ ...current, [arg.name]: value }))}
            completion={{
              serverId,
              ref: { type: "ref/prompt", name: prompt.key },
              context: values,
              isEnabled: canRun,
            }}
          />
        ))}
      </div>
      <div className="mt-5">
        <Button type="submit" disabled={!canRun || isRunning} aria-busy={isRunning || undefined}>
          {isRunning ? "Getting…" : "Get prompt"}
        </Button>
      </div>
    </form>
  );
}

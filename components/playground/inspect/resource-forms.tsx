"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { textOf } from "@/components/ui/format";
import type { CatalogEntryDto } from "@/lib/catalog/types";
import { ArgumentInput } from "./argument-input";
import { expandTemplate, templateVariables } from "./uri-template";

/** What to read: a fixed resource as listed, or a template with its variables filled in. */

type FormProps = { canRun: boolean; isRunning: boolean; onRead: (uri: string) => void };

function EntryDetails({ entry }: { entry: CatalogEntryDto }) {
  const description = textOf(entry.definition.description);
  const mime = textOf(entry.definition.mimeType);
  return (
    <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
      <code className="break-all font-mono text-xs font-medium text-slate-900">{entry.key}</code>
      {mime ? <span className="ml-2 text-xs text-slate-500">{mime}</span> : null}
      {description ? (
        <p className="mt-1 line-clamp-3 whitespace-pre-line text-slate-600">{description}</p>
      ) : null}
    </div>
  );
}

export function FixedResource({ entry, canRun, isRunning, onRead }: FormProps & { entry: CatalogEntryDto }) {
  return (
    <>
      <EntryDetails entry={entry} />
      <div className="mt-4">
        <Button
          onClick={() => onRead(entry.key)}
          disabled={!canRun || isRunning}
          aria-busy={isRunning || undefined}
        >
          {isRunning ? "Reading…" : "Read"}
        </Button>
      </div>
    </>
  );
}

export function TemplateForm({
  entry,
  serverId,
  canRun,
  isRunning,
  onRead,
}: FormProps & { entry: CatalogEntryDto; serverId: string }) {
  const variables = templateVariables(entry.key);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const uri = expandTemplate(entry.key, values);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = variables.filter((name) => !values[name]);
    setErrors(Object.fromEntries(missing.map((name) => [name, ["Fill this in to make the URI."]])));
    if (missing.length > 0) return document.getElementById(`template-var-${missing[0]}`)?.focus();
    onRead(uri);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Template variables" className="mt-1">
      <EntryDetails entry={entry} />
      <div className="mt-4 space-y-3">
        {variables.map((name) => (
          <ArgumentInput
            key={name}
            id={`template-var-${name}`}
            name={name}
            required
            value={values[name] ?? ""}
            errors={errors[name]}
            onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
            completion={{
              serverId,
              ref: { type: "ref/resource", uri: entry.key },
              context: values,
              isEnabled: canRun,
            }}
          />
        ))}
      </div>
      <p className="mt-3 text-xs text-slate-500">
        URI:{" "}
        <code className="break-all font-mono text-slate-800" data-testid="template-uri">
          {uri}
        </code>
      </p>
      <div className="mt-4">
        <Button type="submit" disabled={!canRun || isRunning} aria-busy={isRunning || undefined}>
          {isRunning ? "Reading…" : "Read"}
        </Button>
      </div>
    </form>
  );
}

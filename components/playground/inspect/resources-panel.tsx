"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { readResourceAction } from "@/app/(dashboard)/playground/actions";
import { serverResourcesQuery } from "@/components/servers/server-queries";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { textOf } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { CatalogEntryDto } from "@/lib/catalog/types";
import type { ServerDto } from "@/lib/servers/types";
import { ArgumentInput } from "./argument-input";
import { ReadTracker, RecordedCallHeader, TruncatedNotice } from "./read-tracker";
import { ResourceContents } from "./resource-contents";
import { InspectColumns, ResultArea, WithChosenServer } from "./server-select";
import { expandTemplate, templateVariables } from "./uri-template";
import { useReadAction } from "./use-read-action";

/** The Resources tab: pick a server's resource (or fill in a template), read it as yourself. */
export function ResourcesPanel({ canRun }: { canRun: boolean }) {
  return (
    <WithChosenServer>
      {(server) => <ServerResources key={server.id} server={server} canRun={canRun} />}
    </WithChosenServer>
  );
}

function ServerResources({ server, canRun }: { server: ServerDto; canRun: boolean }) {
  const { data, error } = useQuery(serverResourcesQuery(server.name));
  const [choice, setChoice] = useState("");
  const read = useReadAction(readResourceAction);
  if (!data) return <QueryFallback error={error} what="resources" />;
  const { resources, resourceTemplates } = data;
  if (resources.length === 0 && resourceTemplates.length === 0) {
    return (
      <EmptyState title="No resources">
        {server.name} lists no resources and no resource templates.
      </EmptyState>
    );
  }
  const resource = resources.find((entry) => `resource:${entry.key}` === choice);
  const template = resourceTemplates.find((entry) => `template:${entry.key}` === choice);
  const onRead = (uri: string) => read.mutate({ serverId: server.id, uri });

  return (
    <InspectColumns
      form={
        <>
          <label htmlFor="inspect-resource" className="block text-sm font-medium text-slate-800">
            Resource
          </label>
          <select
            id="inspect-resource"
            className={`${inputClass} mt-1`}
            value={choice}
            onChange={(event) => {
              setChoice(event.target.value);
              read.reset();
            }}
          >
            <option value="">Choose a resource or template…</option>
            {resources.length > 0 ? (
              <optgroup label="Resources">
                {resources.map((entry) => (
                  <option key={entry.id} value={`resource:${entry.key}`}>
                    {labelOf(entry)} — {entry.key}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {resourceTemplates.length > 0 ? (
              <optgroup label="Resource templates">
                {resourceTemplates.map((entry) => (
                  <option key={entry.id} value={`template:${entry.key}`}>
                    {labelOf(entry)} — {entry.key}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          {resource ? (
            <FixedResource
              key={resource.id}
              entry={resource}
              canRun={canRun}
              isRunning={read.isPending}
              onRead={onRead}
            />
          ) : null}
          {template ? (
            <TemplateForm
              key={template.id}
              entry={template}
              serverId={server.id}
              canRun={canRun}
              isRunning={read.isPending}
              onRead={onRead}
            />
          ) : null}
        </>
      }
      result={
        <ResultArea
          isPending={read.isPending}
          error={read.error}
          idle={
            <EmptyState title="Nothing read yet">
              Pick a resource and read it. Reads run as you, through the server&apos;s approval setting, and
              appear in the call history.
            </EmptyState>
          }
        >
          {read.data ? (
            <ReadTracker key={read.data.id} initial={read.data}>
              {(call) => (
                <section
                  aria-labelledby="read-result-title"
                  data-testid="read-result"
                  className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                >
                  <RecordedCallHeader call={call} title="Contents" />
                  <TruncatedNotice call={call} />
                  <div className="mt-3">
                    <ResourceContents
                      contents={Array.isArray(call.result?.contents) ? call.result.contents : []}
                    />
                  </div>
                </section>
              )}
            </ReadTracker>
          ) : null}
        </ResultArea>
      }
    />
  );
}

const labelOf = (entry: CatalogEntryDto) =>
  textOf(entry.definition.title) ?? textOf(entry.definition.name) ?? entry.key;

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

function FixedResource({ entry, canRun, isRunning, onRead }: FormProps & { entry: CatalogEntryDto }) {
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

function TemplateForm({
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

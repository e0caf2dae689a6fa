"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { readResourceAction } from "@/app/(dashboard)/playground/actions";
import { serverResourcesQuery } from "@/components/servers/server-queries";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { textOf } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { CatalogEntryDto } from "@/lib/catalog/types";
import type { ServerDto } from "@/lib/servers/types";
import { ReadTracker, RecordedCallHeader, TruncatedNotice } from "./read-tracker";
import { ResourceContents } from "./resource-contents";
import { FixedResource, TemplateForm } from "./resource-forms";
import { InspectColumns, ResultArea, WithChosenServer } from "./server-select";
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

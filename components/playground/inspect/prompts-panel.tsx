"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { getPromptAction } from "@/app/(dashboard)/playground/actions";
import { serverPromptsQuery } from "@/components/servers/server-queries";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { textOf } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { ServerDto } from "@/lib/servers/types";
import { PromptForm } from "./prompt-form";
import { PromptMessages } from "./prompt-messages";
import { ReadTracker, RecordedCallHeader, TruncatedNotice } from "./read-tracker";
import { InspectColumns, ResultArea, WithChosenServer } from "./server-select";
import { ReadRefused, useReadAction } from "./use-read-action";

/** The Prompts tab: pick a server's prompt, fill in its arguments, get it as yourself. */
export function PromptsPanel({ canRun }: { canRun: boolean }) {
  return (
    <WithChosenServer>
      {(server) => <ServerPrompts key={server.id} server={server} canRun={canRun} />}
    </WithChosenServer>
  );
}

function ServerPrompts({ server, canRun }: { server: ServerDto; canRun: boolean }) {
  const { data: prompts, error } = useQuery(serverPromptsQuery(server.name));
  const [name, setName] = useState("");
  const get = useReadAction(getPromptAction);
  if (!prompts) return <QueryFallback error={error} what="prompts" />;
  if (prompts.length === 0)
    return <EmptyState title="No prompts">{server.name} lists no prompts.</EmptyState>;
  const prompt = prompts.find((entry) => entry.key === name);
  const fieldErrors = get.error instanceof ReadRefused ? get.error.fieldErrors : {};

  return (
    <InspectColumns
      form={
        <>
          <label htmlFor="inspect-prompt" className="block text-sm font-medium text-slate-800">
            Prompt
          </label>
          <select
            id="inspect-prompt"
            className={`${inputClass} mt-1`}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              get.reset();
            }}
          >
            <option value="">Choose a prompt…</option>
            {prompts.map((entry) => (
              <option key={entry.id} value={entry.key}>
                {textOf(entry.definition.title)
                  ? `${textOf(entry.definition.title)} — ${entry.key}`
                  : entry.key}
              </option>
            ))}
          </select>
          {prompt ? (
            <PromptForm
              key={prompt.id}
              prompt={prompt}
              serverId={server.id}
              canRun={canRun}
              isRunning={get.isPending}
              serverErrors={fieldErrors}
              onGet={(args) => get.mutate({ serverId: server.id, name: prompt.key, arguments: args })}
            />
          ) : null}
        </>
      }
      result={
        <ResultArea
          isPending={get.isPending}
          error={Object.keys(fieldErrors).length > 0 ? null : get.error}
          idle={
            <EmptyState title="No prompt yet">
              Pick a prompt, fill in its arguments and get it. Gets run as you and appear in the call history.
            </EmptyState>
          }
        >
          {get.data ? (
            <ReadTracker key={get.data.id} initial={get.data}>
              {(call) => (
                <section
                  aria-labelledby="read-result-title"
                  data-testid="prompt-result"
                  className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                >
                  <RecordedCallHeader call={call} title="Messages" />
                  <TruncatedNotice call={call} />
                  <div className="mt-3">
                    <PromptMessages result={call.result ?? {}} />
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

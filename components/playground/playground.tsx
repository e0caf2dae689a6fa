"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { runToolAction } from "@/app/(dashboard)/playground/actions";
import { toolsListQuery } from "@/components/tools/tool-queries";
import { useCatalogEvents } from "@/components/tools/use-catalog-events";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { ArgsForm } from "./args-form";
import { CallTracker } from "./call-tracker";
import type { Args } from "./schema-form/form-values";
import { SelectedTool } from "./selected-tool";
import { ToolPicker } from "./tool-picker";

/** /playground: pick an enabled tool, fill its arguments, run it as yourself through the governed path. */
export function Playground({ canRun }: { canRun: boolean }) {
  const { data: tools, error } = useQuery(toolsListQuery());
  // `?tool=`: a picked tool can be linked, and survives a reload.
  const [selectedName, setSelectedName] = useQueryState("tool");
  useCatalogEvents();
  const run = useMutation({
    mutationFn: async (input: { tool: string; arguments: Args }) => {
      const result = await runToolAction(input);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });

  if (!tools) return <QueryFallback error={error} what="tools" />;
  const runnable = tools.filter((tool) => tool.enabled && tool.serverEnabled);
  if (runnable.length === 0) {
    return (
      <EmptyState title="No enabled tools" action={<ButtonLink href="/tools">Go to tools</ButtonLink>}>
        The playground lists the enabled tools of enabled servers. None is available yet.
      </EmptyState>
    );
  }
  const selected = runnable.find((tool) => tool.gatewayName === selectedName);

  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <ToolPicker
          tools={runnable}
          selected={selected}
          onSelect={(tool) => {
            void setSelectedName(tool.gatewayName);
            run.reset();
          }}
        />
        {selectedName && !selected ? (
          <div className="mt-3">
            <Alert tone="info">
              {selectedName} is not available: it does not exist, or it or its server is disabled.
            </Alert>
          </div>
        ) : null}
        {selected ? (
          <>
            <SelectedTool tool={selected} />
            <div className="mt-5 border-t border-slate-100 pt-4">
              <ArgsForm
                key={selected.id}
                tool={selected}
                canRun={canRun}
                isRunning={run.isPending}
                onRun={(args) => run.mutate({ tool: selected.gatewayName, arguments: args })}
              />
            </div>
          </>
        ) : null}
      </section>
      <div>
        {run.isPending ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-600 shadow-sm"
          >
            <span
              aria-hidden
              className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
            />
            Running… a call held for approval shows its id in a moment.
          </p>
        ) : run.error ? (
          <Alert title="The call was not made">{run.error.message}</Alert>
        ) : run.data ? (
          <CallTracker key={run.data.id} initial={run.data} />
        ) : (
          <EmptyState title="No call yet">
            Pick a tool and run it. Calls run as you, through the same approval rules agents face, and appear
            in the call history.
          </EmptyState>
        )}
      </div>
    </div>
  );
}

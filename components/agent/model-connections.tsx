"use client";

import { useQueryClient } from "@tanstack/react-query";
import { deleteModelConnectionAction } from "@/app/(dashboard)/agent/actions";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { agentKeys, type ModelConnectionDto } from "./agent-queries";
import { ModelConnectionForm } from "./model-connection-form";

/** The workspace's model connections, each removable, and the form to add one (admins). */
export function ModelConnections({
  connections,
  secretNames,
}: {
  connections: ModelConnectionDto[];
  secretNames: string[];
}) {
  const queryClient = useQueryClient();
  return (
    <details className="group mb-6 rounded-lg border border-slate-200 bg-white shadow-sm">
      <summary className="cursor-pointer list-none rounded-lg px-5 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500">
        <span aria-hidden className="mr-2 inline-block transition-transform group-open:rotate-90">
          ›
        </span>
        Model connections ({connections.length})
      </summary>
      <div className="border-t border-slate-100 px-5 py-4">
        <ul className="mb-5 divide-y divide-slate-100">
          {connections.map((connection) => (
            <li key={connection.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <div className="min-w-0 text-sm">
                <span className="font-medium text-slate-900">{connection.name}</span>{" "}
                <span className="text-slate-600">
                  {connection.model} at{" "}
                  <span className="break-all font-mono text-xs">{connection.baseUrl}</span>
                  {connection.apiKeySecret ? ` · key: secret ${connection.apiKeySecret}` : " · no key"}
                </span>
              </div>
              <ConfirmButton
                label="Delete"
                ariaLabel={`Delete ${connection.name}`}
                title={`Delete ${connection.name}?`}
                confirmLabel="Delete connection"
                pendingLabel="Deleting…"
                onConfirm={confirmAction(
                  () => deleteModelConnectionAction(connection.id),
                  () => queryClient.invalidateQueries({ queryKey: agentKeys.connections() }),
                )}
              >
                New runs can no longer use it; runs made with it keep its name.
              </ConfirmButton>
            </li>
          ))}
        </ul>
        <h3 className="mb-3 text-sm font-semibold text-slate-900">Add a model connection</h3>
        <ModelConnectionForm secretNames={secretNames} />
      </div>
    </details>
  );
}

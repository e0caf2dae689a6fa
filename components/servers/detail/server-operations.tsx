"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  checkServerHealthAction,
  reconnectServerAction,
  refreshServerCatalogAction,
} from "@/app/(dashboard)/servers/actions";
import { Button } from "@/components/ui/button";
import { serverKeys } from "../server-queries";
import { describeHealth, describeReconnect, describeRefresh, type Outcome } from "./operation-outcomes";

const operations = [
  {
    id: "health",
    label: "Health check",
    pendingLabel: "Checking…",
    run: async (name: string) => describeHealth(await checkServerHealthAction(name)),
  },
  {
    id: "reconnect",
    label: "Reconnect",
    pendingLabel: "Reconnecting…",
    run: async (name: string) => describeReconnect(await reconnectServerAction(name)),
  },
  {
    id: "refresh",
    label: "Refresh catalog",
    pendingLabel: "Refreshing…",
    run: async (name: string) => describeRefresh(await refreshServerCatalogAction(name)),
  },
] as const;

type OperationId = (typeof operations)[number]["id"];
type OperationState = Outcome | "pending";

const toneClass: Record<Outcome["tone"], string> = {
  ok: "text-emerald-700",
  warn: "text-amber-800",
  error: "text-red-700",
};

/** Health check, reconnect and refresh: each shows that it runs, then what came of it. */
export function ServerOperations({ name, isEnabled }: { name: string; isEnabled: boolean }) {
  const queryClient = useQueryClient();
  const [states, setStates] = useState<Partial<Record<OperationId, OperationState>>>({});

  const run = async (operation: (typeof operations)[number]) => {
    setStates((s) => ({ ...s, [operation.id]: "pending" }));
    let outcome: Outcome;
    try {
      outcome = await operation.run(name);
    } catch (error) {
      outcome = { tone: "error", text: error instanceof Error ? error.message : "The request failed." };
    }
    setStates((s) => ({ ...s, [operation.id]: outcome }));
    // Everything under the server's key: status, diagnostics, health history, catalog, snapshots;
    // and the list, whose status column may have moved too.
    void queryClient.invalidateQueries({ queryKey: serverKeys.detail(name) });
    void queryClient.invalidateQueries({ queryKey: serverKeys.list() });
  };

  const shown = operations.filter((operation) => states[operation.id] !== undefined);
  return (
    <div className="mt-4">
      <div className="flex flex-wrap gap-2">
        {operations.map((operation) => {
          const isPending = states[operation.id] === "pending";
          return (
            <Button
              key={operation.id}
              variant="secondary"
              disabled={isPending || !isEnabled}
              aria-busy={isPending || undefined}
              title={isEnabled ? undefined : "The server is disabled. Enable it to connect."}
              onClick={() => run(operation)}
            >
              {isPending ? (
                <span
                  aria-hidden
                  className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
                />
              ) : null}
              {isPending ? operation.pendingLabel : operation.label}
            </Button>
          );
        })}
      </div>
      <ul aria-live="polite" className="mt-2 space-y-1 text-sm" data-testid="operation-outcomes">
        {shown.map((operation) => {
          const state = states[operation.id];
          return (
            <li key={operation.id}>
              <span className="font-medium text-slate-700">{operation.label}:</span>{" "}
              {state === "pending" || state === undefined ? (
                <span className="text-slate-500">{operation.pendingLabel}</span>
              ) : (
                <>
                  <span className={toneClass[state.tone]}>{state.text}</span>
                  {state.details ? (
                    <ul className="ml-4 mt-1 list-disc text-xs text-amber-800">
                      {state.details.map((detail) => (
                        <li key={detail}>{detail}</li>
                      ))}
                    </ul>
                  ) : null}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { checkAllServersHealthAction } from "@/app/(dashboard)/servers/actions";
import { Button } from "@/components/ui/button";
import { serverKeys } from "./server-queries";

type Outcome = { tone: "ok" | "error"; text: string };

/** Probes every enabled server in one request and says how many answered, naming those that did not. */
export function CheckAllButton() {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | "pending">();

  const run = async () => {
    setOutcome("pending");
    try {
      const result = await checkAllServersHealthAction();
      setOutcome(result.ok ? summarize(result.data.results) : { tone: "error", text: result.error.message });
    } catch (error) {
      setOutcome({ tone: "error", text: error instanceof Error ? error.message : "The request failed." });
    }
    void queryClient.invalidateQueries({ queryKey: serverKeys.all });
  };

  const isPending = outcome === "pending";
  return (
    <div className="flex items-center gap-3">
      <p aria-live="polite" className="text-sm" data-testid="check-all-outcome">
        {outcome && outcome !== "pending" ? (
          <span className={outcome.tone === "ok" ? "text-emerald-700" : "text-red-700"}>{outcome.text}</span>
        ) : null}
      </p>
      <Button variant="secondary" disabled={isPending} aria-busy={isPending || undefined} onClick={run}>
        {isPending ? "Checking…" : "Check all"}
      </Button>
    </div>
  );
}

function summarize(results: Array<{ server: string; ok: boolean }>): Outcome {
  if (results.length === 0) return { tone: "ok", text: "No enabled servers to check." };
  const unhealthy = results.filter((result) => !result.ok).map((result) => result.server);
  if (unhealthy.length === 0) return { tone: "ok", text: `All ${results.length} healthy` };
  const named =
    unhealthy.slice(0, 5).join(", ") + (unhealthy.length > 5 ? ` and ${unhealthy.length - 5} more` : "");
  return {
    tone: "error",
    text: `${results.length - unhealthy.length} of ${results.length} healthy · unhealthy: ${named}`,
  };
}

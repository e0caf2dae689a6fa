import type {
  checkServerHealthAction,
  reconnectServerAction,
  refreshServerCatalogAction,
} from "@/app/(dashboard)/servers/actions";
import { formatLatency, shortHash } from "@/components/ui/format";
import type { KindDiff } from "@/lib/catalog/types";

/** What an operation button reports once its server action answers. */
export type Outcome = { tone: "ok" | "warn" | "error"; text: string; details?: string[] };

type Result<A extends (name: string) => Promise<unknown>> = Awaited<ReturnType<A>>;
type Failure = { ok: false; error: { message: string } };

const failed = (result: Failure): Outcome => ({ tone: "error", text: result.error.message });

export function describeHealth(result: Result<typeof checkServerHealthAction>): Outcome {
  if (!result.ok) return failed(result);
  const { ok, latencyMs, probe, error } = result.data;
  const via = probe ? ` via ${probe}` : "";
  if (ok) return { tone: "ok", text: `Healthy · ${formatLatency(latencyMs)}${via}` };
  const took = latencyMs !== null ? ` after ${formatLatency(latencyMs)}${via}` : "";
  return { tone: "error", text: `Unhealthy${took}: ${error ?? "no answer"}` };
}

export function describeReconnect(result: Result<typeof reconnectServerAction>): Outcome {
  if (!result.ok) return failed(result);
  const { state } = result.data;
  return state === "ready"
    ? { tone: "ok", text: "Reconnected · ready" }
    : { tone: "warn", text: `Reconnect finished; the server is ${state}` };
}

export function describeRefresh(result: Result<typeof refreshServerCatalogAction>): Outcome {
  if (!result.ok) return failed(result);
  const { changed, hash, diff, problems } = result.data;
  const text = changed
    ? `Catalog changed · ${summarizeDiff(diff)} · snapshot ${shortHash(hash)}`
    : `No changes · snapshot ${shortHash(hash)}`;
  if (problems.length === 0) return { tone: "ok", text };
  const unique = [...new Set(problems)];
  const shown = unique.slice(0, 5);
  const more = unique.length - shown.length;
  return {
    tone: "warn",
    text: `${text} · ${problems.length} ${problems.length === 1 ? "problem" : "problems"} in the listing`,
    details: more > 0 ? [...shown, `… and ${more} more`] : shown,
  };
}

const kindLabels = {
  tools: "tools",
  resources: "resources",
  resourceTemplates: "templates",
  prompts: "prompts",
};

function summarizeDiff(diff: Record<keyof typeof kindLabels, KindDiff>): string {
  const parts = (Object.keys(kindLabels) as (keyof typeof kindLabels)[]).flatMap((kind) => {
    const { added, removed, changed } = diff[kind];
    const counts = [
      added.length ? `+${added.length}` : "",
      removed.length ? `−${removed.length}` : "",
      changed.length ? `~${changed.length}` : "",
    ].filter(Boolean);
    return counts.length ? [`${kindLabels[kind]} ${counts.join(" ")}`] : [];
  });
  return parts.join(", ") || "no entries differ";
}

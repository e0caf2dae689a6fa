"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { pluralize, shortHash } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import type { SnapshotDto } from "@/lib/catalog/types";
import { serverSnapshotsQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { SnapshotDiff } from "./snapshot-diff";

// The REST route returns at most this many, newest first.
const SNAPSHOT_LIMIT = 50;

export function SnapshotsTab({ name }: { name: string }) {
  const { data: snapshots, error } = useQuery({
    ...serverSnapshotsQuery(name),
    refetchInterval: useServerPoll(),
  });
  if (!snapshots) return <QueryFallback error={error} what="snapshots" />;
  if (snapshots.length === 0) {
    return (
      <EmptyState title="No snapshots yet">
        Switchboard records a snapshot of the catalog when it first discovers it, and a new one whenever it
        changes. Each shows what changed since the one before.
      </EmptyState>
    );
  }
  // Only when the whole history fits is the oldest one known to be the first look.
  const isComplete = snapshots.length < SNAPSHOT_LIMIT;
  return (
    <div>
      <p className="mb-3 text-xs text-slate-500">
        Newest first. Each snapshot lists what changed since the one before it:{" "}
        <span className="text-emerald-700">+ added</span>, <span className="text-red-700">− removed</span>,{" "}
        <span className="text-amber-800">~ changed</span>.
      </p>
      <ol className="space-y-3">
        {snapshots.map((snapshot, index) => (
          <SnapshotCard
            key={snapshot.id}
            snapshot={snapshot}
            isLatest={index === 0}
            isFirst={isComplete && index === snapshots.length - 1}
          />
        ))}
      </ol>
    </div>
  );
}

function SnapshotCard({
  snapshot,
  isLatest,
  isFirst,
}: {
  snapshot: SnapshotDto;
  isLatest: boolean;
  isFirst: boolean;
}) {
  const { counts } = snapshot;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="snapshot">
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Time iso={snapshot.takenAt} className="font-medium text-slate-900" />
        <code
          title={snapshot.hash}
          className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
        >
          {shortHash(snapshot.hash)}
        </code>
        {isLatest ? <Badge tone="blue">current</Badge> : null}
        {isFirst ? <Badge tone="slate">first discovery</Badge> : null}
        <span className="text-xs text-slate-500">
          {[
            pluralize(counts.tools, "tool"),
            pluralize(counts.resources, "resource"),
            pluralize(counts.resourceTemplates, "template"),
            pluralize(counts.prompts, "prompt"),
          ].join(" · ")}
        </span>
      </div>
      <SnapshotDiff diff={snapshot.diff} />
    </li>
  );
}

"use client";

import { useQueries } from "@tanstack/react-query";
import { serverSnapshotsQuery } from "@/components/servers/server-queries";
import type { GovernedToolDto } from "./tool-queries";

/**
 * The ids of unclassified tools whose definition changed since Switchboard first saw them — for a
 * classified tool that change is what reset its effect (drift), so it needs a fresh review.
 *
 * The tools API does not say which tools drifted, so this reads it from the catalog snapshots
 * (each lists the tools whose defining fields changed) — only for servers that have an
 * unclassified tool, since a classified one has been reviewed after any change.
 */
export function useDriftedToolIds(tools: GovernedToolDto[] | undefined): Set<string> {
  const servers = [...new Set((tools ?? []).filter((t) => !t.isClassified).map((t) => t.serverName))];
  const snapshots = useQueries({
    queries: servers.map((name) => ({ ...serverSnapshotsQuery(name), refetchInterval: false as const })),
  });
  const changed = new Set<string>();
  servers.forEach((server, index) => {
    for (const snapshot of snapshots[index]?.data ?? []) {
      for (const name of snapshot.diff.tools.changed) changed.add(`${server}\n${name}`);
    }
  });
  return new Set(
    (tools ?? [])
      .filter((t) => !t.isClassified && changed.has(`${t.serverName}\n${t.name}`))
      .map((t) => t.id),
  );
}

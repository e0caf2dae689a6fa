"use client";

import { useQueryClient } from "@tanstack/react-query";
import { serverKeys } from "@/components/servers/server-queries";
import { useEventStream } from "@/lib/client/event-stream";
import { toolKeys } from "./tool-queries";

const catalogEventTypes = ["catalog.changed", "server.state_changed"] as const;

/**
 * Keeps the tool catalog live: a catalog change (new, removed or drifted tools) or a server going
 * up or down refetches the list and that server's snapshots. A gap in the stream refetches all.
 */
export function useCatalogEvents() {
  const queryClient = useQueryClient();
  useEventStream(
    { type: catalogEventTypes },
    (event) => {
      void queryClient.invalidateQueries({ queryKey: toolKeys.all });
      if ("serverName" in event && typeof event.serverName === "string") {
        void queryClient.invalidateQueries({ queryKey: serverKeys.snapshots(event.serverName) });
      }
    },
    { onGap: () => void queryClient.invalidateQueries({ queryKey: toolKeys.all }) },
  );
}

"use client";

import type { QueryKey } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import type { EventStreamStatus } from "@/lib/client/event-stream";
import type { RecordedEvent } from "@/lib/events/event-types";
import { serverKeys } from "./server-queries";

/** How often a page polls its servers' data while the event stream is down (never while it is open). */
export const FALLBACK_POLL_MS = 30_000;

export const pollWhileDown = (status: EventStreamStatus): number | false =>
  status === "open" ? false : FALLBACK_POLL_MS;

// Everything about a server sits under detail(name): an event about it refetches whichever of its
// queries are on screen (its header, the open tab), and the list, which shows its state.
const keysFor = (event: RecordedEvent): readonly QueryKey[] =>
  "serverName" in event && typeof event.serverName === "string"
    ? [serverKeys.list(), serverKeys.detail(event.serverName)]
    : [serverKeys.list()];

/**
 * Keeps the server list (no name) or one server's page live from the event stream: server.* events
 * (state, health, process exits, edits) and, for one server, catalog.* events (its tools,
 * resources, prompts and snapshots) refetch what they concern. Returns the refetchInterval its
 * queries should use: none while the stream is open, a slow poll while it is down.
 */
export function useLiveServers(name?: string): number | false {
  const status = useLiveInvalidation(
    name ? { server: name, type: ["server.", "catalog."] } : { type: "server." },
    keysFor,
    name ? [serverKeys.list(), serverKeys.detail(name)] : [serverKeys.list()],
  );
  return pollWhileDown(status);
}

/** The poll interval for the queries of a server's page, set by ServerDetail from the stream's state. */
export const ServerPollContext = createContext<number | false>(FALLBACK_POLL_MS);
export const useServerPoll = () => useContext(ServerPollContext);

"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { completeArgumentAction } from "@/app/(dashboard)/playground/actions";

export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** Typing pauses this long before the server is asked: one question per pause, not per key. */
const DEBOUNCE_MS = 250;

/**
 * The server's suggestions for one argument (completion/complete through the Playground's action),
 * given what is typed so far and the other arguments. None when the server offers no completions,
 * when the operator may not ask, or when asking failed: suggestions are a help, never in the way.
 */
export function useCompletion(params: {
  serverId: string;
  ref: CompletionRef;
  name: string;
  value: string;
  context: Record<string, string>;
  isEnabled: boolean;
}): { values: string[]; hasMore: boolean } {
  const value = useDebounced(params.value, DEBOUNCE_MS);
  const context = Object.fromEntries(
    Object.entries(params.context).filter(([key, item]) => key !== params.name && item !== ""),
  );
  const { data } = useQuery({
    queryKey: ["playground", "completion", params.serverId, params.ref, params.name, value, context],
    queryFn: async () => {
      const result = await completeArgumentAction({
        serverId: params.serverId,
        ref: params.ref,
        argument: { name: params.name, value },
        ...(Object.keys(context).length > 0 ? { context } : {}),
      });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    enabled: params.isEnabled,
    staleTime: 30_000,
    retry: false,
    placeholderData: (previous) => previous,
  });
  return { values: data?.values ?? [], hasMore: data?.hasMore ?? false };
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

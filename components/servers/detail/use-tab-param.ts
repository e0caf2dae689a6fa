import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

export const detailTabs = ["tools", "resources", "prompts", "health", "diagnostics", "snapshots"] as const;
export type DetailTab = (typeof detailTabs)[number];

const isDetailTab = (value: string | null): value is DetailTab =>
  (detailTabs as readonly (string | null)[]).includes(value);

/**
 * The selected tab lives in `?tab=` so a link or a reload opens the same tab. It is written with
 * history.replaceState, which Next.js syncs into useSearchParams without a server round trip, and
 * which keeps arrowing through the tabs from filling the back button's history.
 */
export function useTabParam(): [DetailTab, (tab: DetailTab) => void] {
  const searchParams = useSearchParams();
  const raw = searchParams.get("tab");
  const tab = isDetailTab(raw) ? raw : "tools";
  const select = useCallback(
    (next: DetailTab) => {
      const params = new URLSearchParams(searchParams.toString());
      params.set("tab", next);
      window.history.replaceState(null, "", `?${params.toString()}`);
    },
    [searchParams],
  );
  return [tab, select];
}

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { useReplaceSearch } from "@/lib/client/use-replace-search";

export const detailTabs = ["tools", "resources", "prompts", "health", "diagnostics", "snapshots"] as const;
export type DetailTab = (typeof detailTabs)[number];

const isDetailTab = (value: string | null): value is DetailTab =>
  (detailTabs as readonly (string | null)[]).includes(value);

/**
 * The selected tab lives in `?tab=` so a link or a reload opens the same tab. Replaced, not pushed,
 * which keeps arrowing through the tabs from filling the back button's history.
 */
export function useTabParam(): [DetailTab, (tab: DetailTab) => void] {
  const searchParams = useSearchParams();
  const replaceSearch = useReplaceSearch();
  const raw = searchParams.get("tab");
  const tab = isDetailTab(raw) ? raw : "tools";
  const select = useCallback(
    (next: DetailTab) => {
      const params = new URLSearchParams(searchParams.toString());
      params.set("tab", next);
      replaceSearch(params);
    },
    [searchParams, replaceSearch],
  );
  return [tab, select];
}

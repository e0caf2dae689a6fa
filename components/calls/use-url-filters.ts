import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { useReplaceSearch } from "@/lib/client/use-replace-search";

/**
 * Filters that live in the query string, so a filtered view can be linked and survives a reload.
 * The URL is the only copy: the page reads them back through useSearchParams, and a link to the
 * page with other filters (or none) simply shows those. Replaced, not pushed, which keeps the back
 * button's history clean.
 */
export function useUrlFilters<K extends string>(
  names: readonly K[],
): [Partial<Record<K, string>>, (patch: Partial<Record<K, string>>) => void] {
  const searchParams = useSearchParams();
  const replaceSearch = useReplaceSearch();
  const key = searchParams.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for searchParams' content
  const filters = useMemo(() => {
    const values: Partial<Record<K, string>> = {};
    for (const name of names) {
      const value = searchParams.get(name);
      if (value) values[name] = value;
    }
    return values;
  }, [key, names.join()]);

  const update = useCallback(
    (patch: Partial<Record<K, string>>) => {
      const params = new URLSearchParams(window.location.search);
      for (const [name, value] of Object.entries(patch) as [K, string | undefined][]) {
        if (value) params.set(name, value);
        else params.delete(name);
      }
      replaceSearch(params);
    },
    [replaceSearch],
  );
  return [filters, update];
}

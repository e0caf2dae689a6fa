import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

/**
 * Filters that live in the query string, so a filtered view can be linked and survives a reload.
 * Written with history.replaceState, which Next.js syncs into useSearchParams without a server
 * round trip (the data comes from React Query), and which keeps the back button's history clean.
 */
export function useUrlFilters<K extends string>(
  names: readonly K[],
): [Partial<Record<K, string>>, (patch: Partial<Record<K, string>>) => void] {
  const searchParams = useSearchParams();
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

  const update = useCallback((patch: Partial<Record<K, string>>) => {
    const params = new URLSearchParams(window.location.search);
    for (const [name, value] of Object.entries(patch) as [K, string | undefined][]) {
      if (value) params.set(name, value);
      else params.delete(name);
    }
    const query = params.toString();
    window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
  }, []);
  return [filters, update];
}

import { useCallback, useEffect, useState } from "react";

/**
 * Replaces the page's query string without a navigation or a server round trip: values that live
 * in the URL (filters, a tab, a picked tool) so a link or a reload keeps them. Next.js syncs
 * history.replaceState into useSearchParams — but only once its router has patched
 * history.replaceState, which it does in a mount effect. A write made straight from an event
 * handler that ran between hydration and that effect (a quick first pick on a busy machine) changed
 * the URL behind the router's back: useSearchParams never saw it and the router's next history
 * write put the old URL back, so the pick was lost. The write therefore happens in an effect of the
 * update: React flushes the hydration's effects before it renders an update, so by then the
 * router is listening.
 */
export function useReplaceSearch(): (query: URLSearchParams) => void {
  // An object per request, so asking for the same query twice still writes it.
  const [pending, setPending] = useState<{ query: string } | null>(null);
  useEffect(() => {
    if (!pending) return;
    window.history.replaceState(null, "", pending.query ? `?${pending.query}` : window.location.pathname);
  }, [pending]);
  return useCallback((query: URLSearchParams) => setPending({ query: query.toString() }), []);
}

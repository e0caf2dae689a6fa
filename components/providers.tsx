"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { type ReactNode, useEffect, useState } from "react";

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser session; created in state so a re-render never drops the cache.
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 1 } } }),
  );
  // Marks the document once React owns it: until then a click or a pick in a server-rendered control
  // does nothing. Browser tests wait for it after each page load (tests/e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // Query-string state (filters, a tab, a picked tool) goes through nuqs. It writes the URL from a
  // timer after React has rendered the change, so after the hydration's effects — Next's router,
  // which patches history in one of them, is listening by then (the race use-replace-search.ts
  // once worked around: a write straight from an early handler was undone by the router).
  return (
    <NuqsAdapter>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </NuqsAdapter>
  );
}

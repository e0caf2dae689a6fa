"use client";

import { useQuery } from "@tanstack/react-query";
import { serverDiagnosticsQuery, serverQuery } from "../server-queries";
import { DetailTabs } from "./detail-tabs";
import { FailureCallout } from "./failure-callout";
import { QueryFallback } from "./query-fallback";
import { ServerHeader } from "./server-header";
import { useTabParam } from "./use-tab-param";

/** /servers/[name]: the server and its live state, refreshed by polling until SSE feeds the cache. */
export function ServerDetail({ name, canManage }: { name: string; canManage: boolean }) {
  const { data: server, error } = useQuery(serverQuery(name));
  const { data: diagnostics } = useQuery(serverDiagnosticsQuery(name));
  const [tab, selectTab] = useTabParam();

  if (!server) return <QueryFallback error={error} what="the server" />;
  // The pool's live state is fresher than the one stored with the server row.
  const status = diagnostics?.state ?? server.status;

  return (
    <>
      <ServerHeader server={server} status={status} canManage={canManage} />
      {error ? (
        <p role="status" className="mb-4 text-xs text-amber-800">
          Live updates paused: {error.message} Showing the last data received.
        </p>
      ) : null}
      <FailureCallout
        status={status}
        serverError={server.lastError}
        diagnostics={diagnostics}
        onShowDiagnostics={() => selectTab("diagnostics")}
      />
      <DetailTabs name={name} tab={tab} onSelect={selectTab} />
    </>
  );
}

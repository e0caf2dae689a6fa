"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { QueryFallback } from "@/components/ui/query-fallback";
import { serverDiagnosticsQuery, serverQuery } from "../server-queries";
import { ServerPollContext, useLiveServers } from "../use-live-servers";
import { AuthorizationBanner } from "./authorization-banner";
import { AuthorizationPanel } from "./authorization-panel";
import { DetailTabs } from "./detail-tabs";
import { FailureCallout } from "./failure-callout";
import { OAuthOutcomeNotice } from "./oauth-outcome-notice";
import { ReplicasTable } from "./replicas-table";
import { ServerCallStats } from "./server-call-stats";
import { ServerHeader } from "./server-header";
import { tabParam } from "./tab-param";

/**
 * /servers/[name]: the server and its live state, kept fresh by the event stream (its server.* and
 * catalog.* events refetch what they concern); its queries poll slowly only while the stream is down.
 */
export function ServerDetail({ name, canManage }: { name: string; canManage: boolean }) {
  const poll = useLiveServers(name);
  const { data: server, error } = useQuery({ ...serverQuery(name), refetchInterval: poll });
  const { data: diagnostics } = useQuery({ ...serverDiagnosticsQuery(name), refetchInterval: poll });
  const [tab, selectTab] = useQueryState("tab", tabParam);

  if (!server) return <QueryFallback error={error} what="the server" />;
  // The pool's live state is fresher than the one stored with the server row.
  const status = diagnostics?.state ?? server.status;
  const replicas = {
    list: diagnostics?.replicas ?? server.replicas,
    summary: diagnostics?.replicaSummary ?? server.replicaSummary,
  };
  const usesOAuth = server.auth.type === "oauth";

  return (
    <ServerPollContext value={poll}>
      <ServerHeader server={server} status={status} replicas={replicas} canManage={canManage} />
      {error ? (
        <p role="status" className="mb-4 text-xs text-amber-800">
          Live updates paused: {error.message} Showing the last data received.
        </p>
      ) : null}
      {usesOAuth ? <OAuthOutcomeNotice /> : null}
      {usesOAuth && status === "needs-authorization" ? (
        <AuthorizationBanner name={name} canManage={canManage} />
      ) : null}
      <FailureCallout
        status={status}
        serverError={server.lastError}
        diagnostics={diagnostics}
        replicas={replicas.list}
        onShowDiagnostics={() => selectTab("diagnostics")}
      />
      {usesOAuth ? (
        <AuthorizationPanel
          name={name}
          canManage={canManage}
          connectInBanner={status === "needs-authorization"}
        />
      ) : null}
      <ReplicasTable replicas={replicas.list} summary={replicas.summary} answeredBy={diagnostics?.replica} />
      <ServerCallStats name={name} />
      <DetailTabs name={name} tab={tab} onSelect={selectTab} />
    </ServerPollContext>
  );
}

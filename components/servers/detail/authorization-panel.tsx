"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import { disconnectServerOAuth, type OAuthStatusDto, serverKeys, serverOAuthQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { OAuthConnectButton } from "./oauth-connect-button";
import { connectAction, describeProblem, oauthStatusBadges, registrationLabels } from "./oauth-labels";

/**
 * An OAuth server's sign-in: whether Switchboard holds a token, how it registered, what was granted,
 * and the last thing that went wrong. Tokens themselves are never shown; admins connect and disconnect.
 * While the needs-authorization banner above offers Connect, the panel does not repeat it.
 */
export function AuthorizationPanel({
  name,
  canManage,
  connectInBanner = false,
}: {
  name: string;
  canManage: boolean;
  connectInBanner?: boolean;
}) {
  const { data: oauth, error } = useQuery({ ...serverOAuthQuery(name), refetchInterval: useServerPoll() });
  return (
    <section
      aria-labelledby="authorization-title"
      data-testid="server-authorization"
      className="mb-6 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="flex items-center gap-2">
          <h2 id="authorization-title" className="text-sm font-semibold text-slate-900">
            Authorization
          </h2>
          {oauth ? (
            <Badge tone={oauthStatusBadges[oauth.status].tone}>{oauthStatusBadges[oauth.status].label}</Badge>
          ) : null}
        </div>
        {oauth && canManage ? (
          <AuthorizationActions name={name} oauth={oauth} showConnect={!connectInBanner} />
        ) : null}
      </div>
      <div className="px-4 py-3">
        {oauth ? <AuthorizationDetails oauth={oauth} canManage={canManage} /> : null}
        {!oauth ? <QueryFallback error={error} what="the authorization" /> : null}
      </div>
    </section>
  );
}

function AuthorizationActions({
  name,
  oauth,
  showConnect,
}: {
  name: string;
  oauth: OAuthStatusDto;
  showConnect: boolean;
}) {
  const queryClient = useQueryClient();
  const action = connectAction(oauth);
  return (
    <div className="flex flex-wrap items-start gap-2">
      {showConnect ? (
        <OAuthConnectButton
          name={name}
          label={action.label}
          scope={action.scope}
          variant={oauth.status === "connected" && !action.scope ? "secondary" : "primary"}
        />
      ) : null}
      {oauth.status !== "not_connected" ? (
        <ConfirmButton
          label="Disconnect"
          variant="secondary"
          title={`Disconnect ${name}?`}
          confirmLabel="Disconnect"
          pendingLabel="Disconnecting…"
          onConfirm={async () => {
            try {
              await disconnectServerOAuth(name);
            } catch (failure) {
              return failure instanceof Error ? failure.message : "The request failed.";
            } finally {
              void queryClient.invalidateQueries({ queryKey: serverKeys.detail(name) });
              void queryClient.invalidateQueries({ queryKey: serverKeys.list() });
            }
            return null;
          }}
        >
          Switchboard deletes its tokens for this server and revokes them where the server supports it. Tool
          calls fail until an admin connects it again.
        </ConfirmButton>
      ) : null}
    </div>
  );
}

function AuthorizationDetails({ oauth, canManage }: { oauth: OAuthStatusDto; canManage: boolean }) {
  const hasToken = oauth.status === "connected" || oauth.connectedAt !== null;
  const hasDetails = hasToken || oauth.registration !== null || oauth.issuer !== null;
  return (
    <>
      {oauth.status === "not_connected" ? (
        <p className="text-sm text-slate-600">
          {hasDetails
            ? "Switchboard holds no token for this server."
            : "Switchboard has not signed in to this server yet."}{" "}
          {canManage
            ? "Click Connect: you sign in and consent on the server's own page, then come back here."
            : "A workspace admin connects it from this page."}
        </p>
      ) : null}
      {hasDetails ? (
        <dl className="mt-3 grid first:mt-0 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <Row term="Registration">{oauth.registration ? registrationLabels[oauth.registration] : "—"}</Row>
          <Row term="Authorization server">
            {oauth.issuer ? <span className="break-all font-mono text-xs">{oauth.issuer}</span> : "—"}
          </Row>
          <Row term="Scopes">
            {oauth.scopes.length > 0 ? (
              <ul className="flex flex-wrap gap-1" aria-label="Granted scopes">
                {oauth.scopes.map((scope) => (
                  <li key={scope}>
                    <Badge tone="neutral">{scope}</Badge>
                  </li>
                ))}
              </ul>
            ) : oauth.status === "not_connected" ? (
              "—"
            ) : (
              <span className="text-slate-500">None recorded (the server's defaults)</span>
            )}
            {oauth.neededScope ? (
              <p className="mt-1 text-xs text-amber-800">
                The server asked for <span className="font-mono">{oauth.neededScope}</span>, which this grant
                lacks.
              </p>
            ) : null}
          </Row>
          <Row term="Access token">
            {oauth.expiresAt ? (
              <>
                expires <Time iso={oauth.expiresAt} /> · renews automatically
              </>
            ) : oauth.status === "connected" ? (
              "no expiry given"
            ) : oauth.status === "needs_authorization" ? (
              // Dropped when the server refused it: not a token without an expiry.
              "none usable"
            ) : (
              "—"
            )}
          </Row>
          <Row term="Signed in">
            {oauth.connectedAt ? (
              <>
                <Time iso={oauth.connectedAt} />
                {oauth.connectedBy ? ` by ${oauth.connectedBy}` : ""}
              </>
            ) : (
              "—"
            )}
          </Row>
        </dl>
      ) : null}
      {oauth.problem ? <ProblemCallout problem={oauth.problem} /> : null}
    </>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="min-w-0 text-slate-800">{children}</dd>
    </>
  );
}

/** The last failure, in the page's failure style (FailureCallout). */
function ProblemCallout({ problem }: { problem: NonNullable<OAuthStatusDto["problem"]> }) {
  return (
    <div
      data-testid="server-authorization-problem"
      className="mt-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <p className="flex flex-wrap items-baseline gap-x-2 font-medium">
        {describeProblem(problem)}
        <span className="text-xs font-normal text-red-700">
          · at <Time iso={problem.at} />
        </span>
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{problem.message}</p>
    </div>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { serverOAuthQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { OAuthConnectButton } from "./oauth-connect-button";
import { connectAction } from "./oauth-labels";

/**
 * The server has no usable token (never connected, renewal failed, grant revoked, or a scope
 * missing): not a crash, nothing retries, and every tool call fails until an admin connects it.
 */
export function AuthorizationBanner({ name, canManage }: { name: string; canManage: boolean }) {
  const { data: oauth } = useQuery({ ...serverOAuthQuery(name), refetchInterval: useServerPoll() });
  const action = connectAction(oauth);
  return (
    <div
      role="alert"
      data-testid="server-needs-authorization"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <div className="min-w-0">
        <p className="font-medium">
          {oauth?.neededScope
            ? `Needs authorization: the server asks for the scope ${oauth.neededScope}`
            : "Needs authorization: Switchboard has no usable token for this server"}
        </p>
        <p className="mt-0.5 text-xs text-amber-800">
          {`Tool calls to it fail until ${canManage ? "you connect it" : "a workspace admin connects it"}. Switchboard does not retry on its own.`}
        </p>
      </div>
      {canManage ? <OAuthConnectButton name={name} label={action.label} scope={action.scope} /> : null}
    </div>
  );
}

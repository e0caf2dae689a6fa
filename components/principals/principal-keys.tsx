"use client";

import { useQueryClient } from "@tanstack/react-query";
import { revokePrincipalKeyAction } from "@/app/(dashboard)/principals/actions";
import { KeysTable } from "@/components/keys/keys-table";
import { RevokeKeyButton } from "@/components/keys/revoke-key-button";
import type { ApiKeyDto } from "@/lib/auth/types";
import { principalKeys } from "./principal-queries";

/** The principal's keys: prefixes only (values are never shown again), with revoke. */
export function PrincipalKeys(props: { principalId: string; keys: ApiKeyDto[]; canManage: boolean }) {
  if (props.keys.length === 0) {
    return <p className="text-sm text-slate-500">No keys yet: this principal cannot connect.</p>;
  }
  return (
    <KeysTable
      keys={props.keys}
      testIdPrefix="principal-key-"
      revokeButton={(key) =>
        props.canManage ? <RevokePrincipalKey principalId={props.principalId} apiKey={key} /> : null
      }
    />
  );
}

function RevokePrincipalKey({ principalId, apiKey }: { principalId: string; apiKey: ApiKeyDto }) {
  const queryClient = useQueryClient();
  return (
    <RevokeKeyButton
      name={apiKey.name}
      revoke={() => revokePrincipalKeyAction(principalId, apiKey.id)}
      onSettled={() => queryClient.invalidateQueries({ queryKey: principalKeys.all })}
    />
  );
}

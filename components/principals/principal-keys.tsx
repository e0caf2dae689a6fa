"use client";

import { useQueryClient } from "@tanstack/react-query";
import { revokePrincipalKeyAction } from "@/app/(dashboard)/principals/actions";
import { RevokeKeyButton } from "@/components/keys/revoke-key-button";
import { Time } from "@/components/servers/detail/time";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import type { ApiKeyDto } from "@/lib/auth/api-keys";
import { principalKeys } from "./principal-queries";

/** The principal's keys: prefixes only (values are never shown again), with revoke. */
export function PrincipalKeys(props: { principalId: string; keys: ApiKeyDto[]; canManage: boolean }) {
  if (props.keys.length === 0) {
    return <p className="text-sm text-slate-500">No keys yet: this principal cannot connect.</p>;
  }
  return (
    <DataTable
      columns={[
        { label: "Name" },
        { label: "Key" },
        { label: "Created" },
        { label: "Last used" },
        { label: "Status" },
        { label: "Actions", srOnly: true },
      ]}
    >
      {props.keys.map((key) => (
        <tr key={key.id} data-testid={`principal-key-${key.name}`}>
          <td className="px-4 py-3 font-medium text-slate-900">{key.name}</td>
          <td className="px-4 py-3 font-mono text-xs text-slate-600">{key.prefix}…</td>
          <td className="px-4 py-3 text-slate-600">
            <Time iso={key.createdAt} />
          </td>
          <td className="px-4 py-3 text-slate-600">
            {key.lastUsedAt ? <Time iso={key.lastUsedAt} /> : "never"}
          </td>
          <td className="px-4 py-3">
            {key.revokedAt ? <Badge tone="red">Revoked</Badge> : <Badge tone="green">Active</Badge>}
          </td>
          <td className="px-4 py-3 text-right">
            {props.canManage && !key.revokedAt ? (
              <RevokePrincipalKey principalId={props.principalId} apiKey={key} />
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
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

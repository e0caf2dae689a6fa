"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { revokePrincipalKeyAction } from "@/app/(dashboard)/principals/actions";
import { Time } from "@/components/servers/detail/time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
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
              <RevokeKeyButton principalId={props.principalId} apiKey={key} />
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function RevokeKeyButton({ principalId, apiKey }: { principalId: string; apiKey: ApiKeyDto }) {
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const revoke = () => {
    if (!window.confirm(`Revoke the key "${apiKey.name}"? Anything using it stops working at once.`)) return;
    startTransition(async () => {
      const result = await revokePrincipalKeyAction(principalId, apiKey.id);
      setError(result.ok ? null : result.error.message);
      await queryClient.invalidateQueries({ queryKey: principalKeys.all });
    });
  };
  return (
    <>
      <Button
        variant="ghost"
        className="text-red-700 hover:bg-red-50"
        disabled={isPending}
        aria-label={`Revoke ${apiKey.name}`}
        onClick={revoke}
      >
        {isPending ? "Revoking…" : "Revoke"}
      </Button>
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

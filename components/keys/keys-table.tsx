import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { Time } from "@/components/ui/time";
import type { ApiKeyDto } from "@/lib/auth/types";

/**
 * API keys as operators read them — prefix only (a value is never shown again), times in the
 * viewer's zone, active or revoked — for the workspace's keys and for a principal's alike.
 */
export function KeysTable({
  keys,
  testIdPrefix,
  showScopes = false,
  revokeButton,
}: {
  keys: ApiKeyDto[];
  testIdPrefix: string;
  /** a principal's keys are always gateway-only: no column needed there */
  showScopes?: boolean;
  /** the revoke control for an active key, or null where the reader may not revoke */
  revokeButton: (key: ApiKeyDto) => ReactNode;
}) {
  return (
    <DataTable
      columns={[
        { label: "Name" },
        { label: "Key" },
        ...(showScopes ? [{ label: "Scopes" }] : []),
        { label: "Created" },
        { label: "Last used" },
        { label: "Status" },
        { label: "Actions", srOnly: true },
      ]}
    >
      {keys.map((key) => (
        <tr key={key.id} data-testid={`${testIdPrefix}${key.name}`}>
          <td className="px-4 py-3 font-medium text-slate-900">{key.name}</td>
          <td className="px-4 py-3 font-mono text-xs text-slate-600">{key.prefix}…</td>
          {showScopes ? (
            <td className="space-x-1 px-4 py-3">
              {key.scopes.map((scope) => (
                <Badge key={scope} tone={scope === "admin" ? "blue" : "neutral"}>
                  {scope}
                </Badge>
              ))}
              {key.principalId ? (
                <span className="text-xs text-slate-500">
                  of{" "}
                  <Link href={`/principals/${key.principalId}`} className="text-indigo-700 hover:underline">
                    {key.principalName ?? "an agent"}
                  </Link>
                </span>
              ) : null}
            </td>
          ) : null}
          <td className="px-4 py-3 text-slate-600">
            <Time iso={key.createdAt} />
          </td>
          <td className="px-4 py-3 text-slate-600">
            {key.lastUsedAt ? <Time iso={key.lastUsedAt} /> : "never"}
          </td>
          <td className="px-4 py-3">
            {key.revokedAt ? (
              <Badge tone="red">Revoked</Badge>
            ) : key.inactiveReason ? (
              // Not revoked, but its creator no longer has the rights it needs (lib/auth/key-standing).
              <>
                <Badge tone="amber">Inactive</Badge>
                <span className="mt-1 block text-xs text-slate-600">inactive: {key.inactiveReason}</span>
              </>
            ) : (
              <Badge tone="green">Active</Badge>
            )}
          </td>
          <td className="px-4 py-3 text-right">{key.revokedAt ? null : revokeButton(key)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

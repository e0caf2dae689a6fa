import type { Metadata } from "next";
import { CreateApiKey } from "@/components/settings/create-api-key";
import { RevokeApiKeyButton } from "@/components/settings/revoke-api-key-button";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { listApiKeys } from "@/lib/auth/api-keys";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

const when = (iso: string | null) =>
  iso ? `${new Date(iso).toLocaleString("en-GB", { timeZone: "UTC" })} UTC` : "never";

export default async function ApiKeysPage() {
  const { db, tenant, canManage } = await getPageContext();
  const keys = await listApiKeys(db, { tenantId: tenant.id });
  return (
    <>
      {canManage ? <CreateApiKey /> : null}
      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          Keys let scripts, the CLI and agents act in this workspace.
        </EmptyState>
      ) : (
        <DataTable
          columns={[
            { label: "Name" },
            { label: "Key" },
            { label: "Scopes" },
            { label: "Last used" },
            { label: "Status" },
            { label: "Actions", srOnly: true },
          ]}
        >
          {keys.map((k) => (
            <tr key={k.id} data-testid={`api-key-${k.name}`}>
              <td className="px-4 py-3 font-medium text-slate-900">{k.name}</td>
              <td className="px-4 py-3 font-mono text-xs text-slate-600">{k.prefix}…</td>
              <td className="space-x-1 px-4 py-3">
                {k.scopes.map((s) => (
                  <Badge key={s} tone={s === "admin" ? "blue" : "neutral"}>
                    {s}
                  </Badge>
                ))}
              </td>
              <td className="px-4 py-3 text-slate-600">{when(k.lastUsedAt)}</td>
              <td className="px-4 py-3">
                {k.revokedAt ? <Badge tone="red">Revoked</Badge> : <Badge tone="green">Active</Badge>}
              </td>
              <td className="px-4 py-3 text-right">
                {canManage && !k.revokedAt ? <RevokeApiKeyButton id={k.id} name={k.name} /> : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

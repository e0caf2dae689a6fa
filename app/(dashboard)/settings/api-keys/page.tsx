import type { Metadata } from "next";
import { KeysTable } from "@/components/keys/keys-table";
import { CreateApiKey } from "@/components/settings/create-api-key";
import { RevokeApiKeyButton } from "@/components/settings/revoke-api-key-button";
import { EmptyState } from "@/components/ui/empty-state";
import { listApiKeys } from "@/lib/auth/api-keys";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

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
        <KeysTable
          keys={keys}
          testIdPrefix="api-key-"
          showScopes
          revokeButton={(key) => (canManage ? <RevokeApiKeyButton id={key.id} name={key.name} /> : null)}
        />
      )}
    </>
  );
}

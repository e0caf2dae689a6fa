"use client";

import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import type { ActionResult } from "@/lib/actions/action-result";

/**
 * Revoke for a key (a workspace's or a principal's), after a confirmation. `onSettled` refreshes
 * the list either way: a key revoked meanwhile from elsewhere then shows as revoked.
 */
export function RevokeKeyButton({
  name,
  revoke,
  onSettled,
}: {
  name: string;
  revoke: () => Promise<ActionResult<unknown>>;
  onSettled: () => unknown;
}) {
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke ${name}`}
      title={`Revoke the key "${name}"?`}
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      onConfirm={confirmAction(revoke, onSettled)}
    >
      Anything using it stops working at once. This cannot be undone.
    </ConfirmButton>
  );
}

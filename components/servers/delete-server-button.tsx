"use client";

import { useQueryClient } from "@tanstack/react-query";
import { deleteServerAction } from "@/app/(dashboard)/servers/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { serverKeys } from "./server-queries";

export function DeleteServerButton({ name, onDeleted }: { name: string; onDeleted?: () => void }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmButton
      label="Delete"
      ariaLabel={`Delete ${name}`}
      title={`Delete ${name}?`}
      confirmLabel="Delete server"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        const result = await deleteServerAction(name);
        if (!result.ok) return result.error.message;
        await queryClient.invalidateQueries({ queryKey: serverKeys.all });
        onDeleted?.();
        return null;
      }}
    >
      Switchboard forgets this server's configuration and catalog. Agents lose access to its tools. This
      cannot be undone.
    </ConfirmButton>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { deletePrincipalAction } from "@/app/(dashboard)/principals/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { principalKeys } from "./principal-queries";

export function DeletePrincipalButton({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete principal"
      variant="danger"
      title={`Delete the principal "${name}"?`}
      confirmLabel="Delete principal"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        const result = await deletePrincipalAction(id);
        if (!result.ok) return result.error.message;
        queryClient.removeQueries({ queryKey: principalKeys.detail(id) });
        await queryClient.invalidateQueries({ queryKey: principalKeys.list() });
        router.push("/principals");
        return null;
      }}
    >
      Its keys stop working at once and its grants are removed; its call history stays.
    </ConfirmButton>
  );
}

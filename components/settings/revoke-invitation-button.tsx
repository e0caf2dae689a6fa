"use client";

import { useRouter } from "next/navigation";
import { revokeInvitationAction } from "@/app/(dashboard)/settings/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

export function RevokeInvitationButton({ id, role }: { id: string; role: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke the ${role} invitation`}
      title={`Revoke this ${role} invitation?`}
      confirmLabel="Revoke invitation"
      pendingLabel="Revoking…"
      onConfirm={async () => {
        const result = await revokeInvitationAction(id);
        // Either way the list is redrawn: a link used or revoked meanwhile then leaves it.
        router.refresh();
        return result.ok ? null : result.error.message;
      }}
    >
      Its link stops working at once; nobody has joined with it yet.
    </ConfirmButton>
  );
}

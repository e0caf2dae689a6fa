"use client";

import { useRouter } from "next/navigation";
import { revokeInvitationAction } from "@/app/(dashboard)/settings/actions";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";

export function RevokeInvitationButton({ id, role }: { id: string; role: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke the ${role} invitation`}
      title={`Revoke this ${role} invitation?`}
      confirmLabel="Revoke invitation"
      pendingLabel="Revoking…"
      onConfirm={confirmAction(
        () => revokeInvitationAction(id),
        () => router.refresh(),
      )}
    >
      Its link stops working at once; nobody has joined with it yet.
    </ConfirmButton>
  );
}

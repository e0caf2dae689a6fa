"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { changeRoleAction, removeMemberAction } from "@/app/(dashboard)/settings/actions";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { inputClass } from "@/components/ui/field";

export function MemberRowActions({
  userId,
  name,
  role,
  isSelf,
}: {
  userId: string;
  name: string;
  role: string;
  isSelf: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const run = (action: () => Promise<{ ok: boolean; error?: { message: string } }>) =>
    startTransition(async () => {
      const result = await action();
      setError(result.ok ? null : (result.error?.message ?? "Failed."));
      router.refresh();
    });

  return (
    <div className="flex items-center justify-end gap-2">
      <select
        aria-label={`Role of ${name}`}
        className={`${inputClass} w-36`}
        value={role}
        disabled={isPending}
        onChange={(e) => run(() => changeRoleAction(userId, { role: e.target.value }))}
      >
        <option value="admin">admin</option>
        <option value="approver">approver</option>
        <option value="viewer">viewer</option>
      </select>
      {isSelf ? null : (
        <ConfirmButton
          label="Remove"
          ariaLabel={`Remove ${name}`}
          title={`Remove ${name} from this workspace?`}
          confirmLabel="Remove member"
          pendingLabel="Removing…"
          onConfirm={confirmAction(
            () => removeMemberAction(userId),
            () => router.refresh(),
          )}
        >
          They lose access to this workspace at once; what they did stays in its history.
        </ConfirmButton>
      )}
      {error ? (
        <p role="alert" className="max-w-xs text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

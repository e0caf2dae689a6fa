"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/action-result";

/**
 * Revoke for a key (a workspace's or a principal's), behind a confirmation. The action's error is
 * shown beside the button; `onSettled` refreshes the list either way (a key revoked meanwhile from
 * elsewhere then shows as revoked).
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
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    if (!window.confirm(`Revoke the key "${name}"? Anything using it stops working at once.`)) return;
    startTransition(async () => {
      const result = await revoke();
      setError(result.ok ? null : result.error.message);
      await onSettled();
    });
  };
  return (
    <>
      <Button
        variant="ghost"
        className="text-red-700 hover:bg-red-50"
        disabled={isPending}
        aria-label={`Revoke ${name}`}
        onClick={run}
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

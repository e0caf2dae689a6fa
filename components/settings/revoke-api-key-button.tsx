"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revokeApiKeyAction } from "@/app/(dashboard)/settings/actions";
import { Button } from "@/components/ui/button";

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  return (
    <>
      <Button
        variant="ghost"
        className="text-red-700 hover:bg-red-50"
        disabled={isPending}
        aria-label={`Revoke ${name}`}
        onClick={() => {
          if (!window.confirm(`Revoke the key "${name}"? Anything using it stops working at once.`)) return;
          startTransition(async () => {
            const result = await revokeApiKeyAction(id);
            // Refreshed either way: a key revoked meanwhile elsewhere shows as revoked.
            setError(result.ok ? null : result.error.message);
            router.refresh();
          });
        }}
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

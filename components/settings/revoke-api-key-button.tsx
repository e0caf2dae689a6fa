"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { revokeApiKeyAction } from "@/app/(dashboard)/settings/actions";
import { Button } from "@/components/ui/button";

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      className="text-red-700 hover:bg-red-50"
      disabled={isPending}
      aria-label={`Revoke ${name}`}
      onClick={() => {
        if (!window.confirm(`Revoke the key "${name}"? Anything using it stops working at once.`)) return;
        startTransition(async () => {
          await revokeApiKeyAction(id);
          router.refresh();
        });
      }}
    >
      {isPending ? "Revoking…" : "Revoke"}
    </Button>
  );
}

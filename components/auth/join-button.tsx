"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { acceptInvitationAction } from "@/app/(auth)/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export function JoinButton({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  return (
    <div className="space-y-3">
      {error ? <Alert>{error}</Alert> : null}
      <Button
        className="w-full"
        disabled={isPending}
        onClick={() =>
          startTransition(async () => {
            const result = await acceptInvitationAction(token);
            if (!result.ok) return setError(result.error.message);
            router.push("/");
            router.refresh();
          })
        }
      >
        {isPending ? "Joining…" : "Join workspace"}
      </Button>
    </div>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deletePrincipalAction } from "@/app/(dashboard)/principals/actions";
import { Button } from "@/components/ui/button";
import { principalKeys } from "./principal-queries";

export function DeletePrincipalButton({ id, name }: { id: string; name: string }) {
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = () => {
    const question = `Delete the principal "${name}"? Its keys stop working at once and its grants are removed; its call history stays.`;
    if (!window.confirm(question)) return;
    startTransition(async () => {
      const result = await deletePrincipalAction(id);
      if (!result.ok) return setError(result.error.message);
      queryClient.removeQueries({ queryKey: principalKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: principalKeys.list() });
      router.push("/principals");
    });
  };
  return (
    <div className="text-right">
      <Button variant="danger" disabled={isPending} onClick={remove}>
        {isPending ? "Deleting…" : "Delete principal"}
      </Button>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

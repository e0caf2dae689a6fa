"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, useTransition } from "react";
import { deleteServerAction } from "@/app/(dashboard)/servers/actions";
import { Button } from "@/components/ui/button";
import { serverKeys } from "./server-queries";

/** Delete behind a confirmation dialog (native <dialog>: focus trap and Escape come for free). */
export function DeleteServerButton({ name, onDeleted }: { name: string; onDeleted?: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();

  const confirm = () =>
    startTransition(async () => {
      const result = await deleteServerAction(name);
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      dialog.current?.close();
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
      onDeleted?.();
    });

  return (
    <>
      <Button
        variant="ghost"
        className="text-red-700 hover:bg-red-50 hover:text-red-800"
        aria-label={`Delete ${name}`}
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        Delete
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={`delete-${name}-title`}
        className="m-auto w-full max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-6">
          <h2 id={`delete-${name}-title`} className="text-lg font-semibold text-slate-900">
            Delete {name}?
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            Switchboard forgets this server's configuration and catalog. Agents lose access to its tools. This
            cannot be undone.
          </p>
          {error ? (
            <p role="alert" className="mt-3 text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()} disabled={isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirm} disabled={isPending}>
              {isPending ? "Deleting…" : "Delete server"}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

"use client";

import { type ReactNode, useId, useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/action-result";
import { Button, type ButtonVariant } from "./button";

/**
 * A button that asks before it acts, in a native <dialog> rather than a dialog library (focus trap,
 * Escape, the backdrop and the top layer come with the browser): the question, what follows from it, then Cancel or the action. `onConfirm` resolves
 * to an error message, shown in the dialog, or to null once done (the dialog closes).
 */
export function ConfirmButton({
  label,
  ariaLabel,
  variant = "ghost-danger",
  title,
  children,
  confirmLabel,
  pendingLabel,
  onConfirm,
}: {
  label: string;
  ariaLabel?: string;
  variant?: ButtonVariant;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  onConfirm: () => Promise<string | null>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  const confirm = () =>
    startTransition(async () => {
      const failure = await onConfirm();
      setError(failure);
      if (failure === null) dialog.current?.close();
    });

  return (
    <>
      <Button
        variant={variant}
        aria-label={ariaLabel}
        disabled={isPending}
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {isPending ? pendingLabel : label}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-full max-w-md rounded-lg p-0 text-left shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <div className="mt-2 text-sm text-slate-600">{children}</div>
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
              {isPending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

/**
 * `onConfirm` for a server action: runs it, then `onSettled` either way (a list redrawn: a thing
 * removed meanwhile from elsewhere then shows as gone), and answers the action's error, if any.
 */
export function confirmAction(action: () => Promise<ActionResult<unknown>>, onSettled: () => unknown) {
  return async (): Promise<string | null> => {
    const result = await action();
    await onSettled();
    return result.ok ? null : result.error.message;
  };
}

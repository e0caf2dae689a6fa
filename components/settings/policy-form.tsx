"use client";

import { useRouter } from "next/navigation";
import { type Dispatch, type SetStateAction, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/action-result";
import type { FieldErrors } from "@/lib/errors";

type Message = { tone: "error" | "info"; text: string };

/**
 * Saving a workspace policy form through its server action: the field errors, one message above
 * the form, the page refreshed once saved. When a field shows its own error, the message above
 * only says that nothing was saved (`marked`), not the error again.
 */
export function usePolicySave(texts: { saved: string; marked: string }): {
  errors: FieldErrors;
  setErrors: Dispatch<SetStateAction<FieldErrors>>;
  message: Message | null;
  isPending: boolean;
  save: (action: () => Promise<ActionResult<unknown>>, isShownBeside: (field: string) => boolean) => void;
} {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const save = (action: () => Promise<ActionResult<unknown>>, isShownBeside: (field: string) => boolean) =>
    startTransition(async () => {
      const result = await action();
      const fieldErrors = result.ok ? {} : (result.error.fieldErrors ?? {});
      setErrors(fieldErrors);
      if (result.ok) {
        setMessage({ tone: "info", text: texts.saved });
        router.refresh();
        return;
      }
      const besideFields = Object.keys(fieldErrors).some(isShownBeside);
      setMessage({ tone: "error", text: besideFields ? texts.marked : result.error.message });
    });
  return { errors, setErrors, message, isPending, save };
}

/** The form's Save button for an admin; for everyone else, why there is none (when given). */
export function PolicyFormFooter(props: {
  canManage: boolean;
  isPending: boolean;
  label: string;
  readOnlyNote?: string;
}) {
  if (!props.canManage) {
    return props.readOnlyNote ? <p className="text-xs text-slate-500">{props.readOnlyNote}</p> : null;
  }
  return (
    <div className="flex justify-end">
      <Button type="submit" disabled={props.isPending}>
        {props.isPending ? "Saving…" : props.label}
      </Button>
    </div>
  );
}

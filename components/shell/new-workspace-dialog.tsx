"use client";

import type { FormEvent, Ref } from "react";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";

/**
 * The "New workspace" form, in a native modal dialog. Someone the instance policy does not let
 * create workspaces sees why and who can, and a form that cannot be sent.
 */
export function NewWorkspaceDialog({
  ref,
  canCreate,
  isPending,
  nameError,
  onSubmit,
}: {
  ref: Ref<HTMLDialogElement>;
  canCreate: boolean;
  isPending: boolean;
  nameError: string[] | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <dialog
      ref={ref}
      aria-labelledby="new-workspace-title"
      className="m-auto w-full max-w-sm rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4 p-6">
        <h2 id="new-workspace-title" className="text-lg font-semibold text-slate-900">
          New workspace
        </h2>
        <p className="text-sm text-slate-600">
          A separate set of servers, secrets, keys and members.
          {canCreate ? " You will be its admin." : null}
        </p>
        {canCreate ? null : (
          <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Only instance owners can create workspaces. Ask one of them to create it, or to let any signed-in
            member do so in Settings → Instance.
          </p>
        )}
        <fieldset disabled={!canCreate} className="disabled:opacity-60">
          <Field id="workspace-name" label="Name" errors={nameError}>
            <TextInput id="workspace-name" name="name" invalid={!!nameError} placeholder="Platform team" />
          </Field>
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={(event) => event.currentTarget.closest("dialog")?.close()}>
            {canCreate ? "Cancel" : "Close"}
          </Button>
          <Button type="submit" disabled={isPending || !canCreate}>
            {isPending ? "Creating…" : "Create workspace"}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

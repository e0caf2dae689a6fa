"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState, useTransition } from "react";
import { createWorkspaceAction, switchWorkspaceAction } from "@/app/(dashboard)/actions";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/action-result";

type Workspace = { id: string; name: string; role: string };

const NEW = "__new";

/**
 * Lists the operator's workspaces; switching sets a cookie and reloads every query. "New workspace"
 * opens a form, or, when the instance policy keeps creation to instance owners and this person is
 * not one, says so instead of offering a form that would fail.
 */
export function WorkspaceSwitcher({
  current,
  workspaces,
  canCreateWorkspace,
}: {
  current: string;
  workspaces: Workspace[];
  canCreateWorkspace: boolean;
}) {
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string[] | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  const afterSwitch = (result: ActionResult<null>) => {
    if (!result.ok) return false;
    queryClient.clear();
    dialog.current?.close();
    router.push("/");
    router.refresh();
    return true;
  };

  const onChange = (value: string) => {
    if (value === NEW) {
      setNameError(undefined);
      dialog.current?.showModal();
      return;
    }
    startTransition(async () => {
      const result = await switchWorkspaceAction(value);
      setError(result.ok ? null : result.error.message);
      afterSwitch(result);
    });
  };

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    startTransition(async () => {
      const result = await createWorkspaceAction({ name });
      if (!result.ok) setNameError(result.error.fieldErrors?.name ?? [result.error.message]);
      afterSwitch(result);
    });
  };

  return (
    <div className="px-3">
      <label
        htmlFor="workspace"
        className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500"
      >
        Workspace
      </label>
      <select
        id="workspace"
        value={current}
        disabled={isPending}
        onChange={(e) => onChange(e.target.value)}
        className="w-full rounded-md border border-slate-700 bg-slate-800 px-2 py-1.5 text-sm text-white"
      >
        {workspaces.map((w) => (
          // The role is not in the label: the sidebar is narrow, and the account block under it
          // says the role in the current workspace.
          <option key={w.id} value={w.id} title={`${w.name} (${w.role})`}>
            {w.name}
          </option>
        ))}
        <option value={NEW}>+ New workspace…</option>
      </select>
      {error ? <p className="mt-1 text-xs text-red-300">{error}</p> : null}
      <dialog
        ref={dialog}
        aria-labelledby="new-workspace-title"
        className="m-auto w-full max-w-sm rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <form onSubmit={create} noValidate className="space-y-4 p-6">
          <h2 id="new-workspace-title" className="text-lg font-semibold text-slate-900">
            New workspace
          </h2>
          <p className="text-sm text-slate-600">
            A separate set of servers, secrets, keys and members.
            {canCreateWorkspace ? " You will be its admin." : null}
          </p>
          {canCreateWorkspace ? null : (
            <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Only instance owners can create workspaces. Ask one of them to create it, or to let any
              signed-in member do so in Settings → Instance.
            </p>
          )}
          <fieldset disabled={!canCreateWorkspace} className="disabled:opacity-60">
            <Field id="workspace-name" label="Name" errors={nameError}>
              <TextInput id="workspace-name" name="name" invalid={!!nameError} placeholder="Platform team" />
            </Field>
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              {canCreateWorkspace ? "Cancel" : "Close"}
            </Button>
            <Button type="submit" disabled={isPending || !canCreateWorkspace}>
              {isPending ? "Creating…" : "Create workspace"}
            </Button>
          </div>
        </form>
      </dialog>
    </div>
  );
}

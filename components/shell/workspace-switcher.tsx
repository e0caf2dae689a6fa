"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useRef, useState, useTransition } from "react";
import { createWorkspaceAction, switchWorkspaceAction } from "@/app/(dashboard)/actions";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { ActionResult } from "@/lib/actions/action-result";
import { NewWorkspaceDialog } from "./new-workspace-dialog";

type Workspace = { id: string; name: string; role: string };

/**
 * Lists the operator's workspaces in a menu: arrowing through it changes nothing, choosing one
 * (Enter or a click) sets a cookie and reloads every query. "New workspace" opens a form, or, when
 * the instance policy keeps creation to instance owners and this person is not one, says so
 * instead of offering a form that would fail.
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
  // The dialog opens once the menu has closed, so the menu's focus return does not steal its focus.
  const isOpeningDialog = useRef(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const labelId = useId();
  const currentName = workspaces.find((w) => w.id === current)?.name ?? "Choose a workspace";

  const afterSwitch = (result: ActionResult<null>) => {
    if (!result.ok) return;
    queryClient.clear();
    dialog.current?.close();
    router.push("/");
    router.refresh();
  };

  const switchTo = (id: string) => {
    if (id === current) return;
    startTransition(async () => {
      const result = await switchWorkspaceAction(id);
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
      <span id={labelId} className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-400">
        Workspace
      </span>
      <DropdownMenu>
        <DropdownMenuTrigger
          // Named "Workspace <current one>", like a select with its value.
          aria-labelledby={`${labelId} ${labelId}-value`}
          disabled={isPending}
          className="flex w-full items-center justify-between gap-2 rounded-md border border-slate-700 bg-slate-800 px-2 py-1.5 text-left text-sm text-white hover:bg-slate-700 disabled:opacity-60 data-[state=open]:border-slate-500"
        >
          <span id={`${labelId}-value`} className="truncate">
            {isPending ? "Switching…" : currentName}
          </span>
          <Chevron />
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="start"
          // As wide as the names need (the sidebar is narrow), never narrower than the button.
          className="w-max min-w-[var(--radix-dropdown-menu-trigger-width)] max-w-xs"
          onCloseAutoFocus={(event) => {
            if (!isOpeningDialog.current) return;
            isOpeningDialog.current = false;
            event.preventDefault();
            setNameError(undefined);
            dialog.current?.showModal();
          }}
        >
          <DropdownMenuLabel>Your workspaces</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={current} onValueChange={switchTo}>
            {workspaces.map((w) => (
              <DropdownMenuRadioItem key={w.id} value={w.id} title={`${w.name} (${w.role})`}>
                <span className="min-w-0 flex-1 truncate">{w.name}</span>
                <span className="ml-3 shrink-0 text-xs text-slate-500">{w.role}</span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => (isOpeningDialog.current = true)}>
            + New workspace…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {error ? <p className="mt-1 text-xs text-red-300">{error}</p> : null}
      <NewWorkspaceDialog
        ref={dialog}
        canCreate={canCreateWorkspace}
        isPending={isPending}
        nameError={nameError}
        onSubmit={create}
      />
    </div>
  );
}

function Chevron() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-slate-400">
      <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.1l3.71-3.87a.75.75 0 1 1 1.08 1.04l-4.25 4.43a.75.75 0 0 1-1.08 0L5.21 8.27a.75.75 0 0 1 .02-1.06Z" />
    </svg>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createWorkspaceAction, switchWorkspaceAction } from "@/app/(dashboard)/actions";

type Workspace = { id: string; name: string; role: string };

/** Lists the operator's workspaces; switching sets a cookie and reloads every query. */
export function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: Workspace[] }) {
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  const after = (result: { ok: boolean; error?: { message: string } }) => {
    if (!result.ok) return setError(result.error?.message ?? "Could not switch.");
    setError(null);
    queryClient.clear();
    router.push("/");
    router.refresh();
  };

  const onChange = (value: string) =>
    startTransition(async () => {
      if (value !== "__new") return after(await switchWorkspaceAction(value));
      const name = window.prompt("Name of the new workspace");
      if (name) after(await createWorkspaceAction({ name }));
    });

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
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
        <option value="__new">+ New workspace…</option>
      </select>
      {error ? <p className="mt-1 text-xs text-red-300">{error}</p> : null}
    </div>
  );
}

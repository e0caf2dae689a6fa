"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { signOutAction } from "@/app/(dashboard)/actions";

export function AccountMenu({ name, email, role }: { name: string; email: string; role: string }) {
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  return (
    <details className="group relative px-3">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md p-2 text-left hover:bg-slate-800">
        <span
          aria-hidden
          className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-slate-700 text-sm text-white"
        >
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="min-w-0">
          <span className="block truncate text-sm text-white">{name}</span>
          <span className="block truncate text-xs text-slate-400">{role}</span>
        </span>
      </summary>
      <div className="absolute bottom-full left-3 right-3 mb-2 rounded-md border border-slate-700 bg-slate-800 p-2 shadow-lg">
        <p className="truncate px-2 py-1 text-xs text-slate-400">{email}</p>
        <button
          type="button"
          disabled={isPending}
          onClick={() =>
            startTransition(async () => {
              await signOutAction();
              router.push("/sign-in");
              router.refresh();
            })
          }
          className="w-full rounded px-2 py-1.5 text-left text-sm text-slate-200 hover:bg-slate-700"
        >
          {isPending ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </details>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { signOutAction } from "@/app/(dashboard)/actions";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** Who is signed in, and signing out: a menu that opens upwards from the foot of the sidebar. */
export function AccountMenu({ name, email, role }: { name: string; email: string; role: string }) {
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const signOut = () =>
    startTransition(async () => {
      await signOutAction();
      router.push("/sign-in");
      router.refresh();
    });

  return (
    <div className="px-3">
      <DropdownMenu>
        <DropdownMenuTrigger className="flex w-full items-center gap-2 rounded-md p-2 text-left hover:bg-slate-800 data-[state=open]:bg-slate-800">
          <span
            aria-hidden
            className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-slate-700 text-sm text-white"
          >
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className="min-w-0 flex-1">
            <span className="sr-only">Account: </span>
            <span className="block truncate text-sm text-white">{name}</span>
            <span className="block truncate text-xs text-slate-400">{role}</span>
          </span>
        </DropdownMenuTrigger>
        <DropdownMenuContent
          side="top"
          align="start"
          className="w-[var(--radix-dropdown-menu-trigger-width)]"
        >
          <DropdownMenuLabel className="font-normal" title={email}>
            Signed in as
            <span className="block truncate font-medium text-slate-800">{email}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            disabled={isPending}
            onSelect={(event) => {
              // Stays open, saying it is on its way, until the sign-in page replaces the dashboard.
              event.preventDefault();
              signOut();
            }}
          >
            {isPending ? "Signing out…" : "Sign out"}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

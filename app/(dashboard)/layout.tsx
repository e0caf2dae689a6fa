import Link from "next/link";
import type { ReactNode } from "react";
import { NavLinks } from "@/components/shell/nav-links";

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <aside className="flex w-56 shrink-0 flex-col bg-slate-900 px-3 py-5">
        <Link href="/" className="mb-6 flex items-center gap-2 px-3 text-white">
          <span
            aria-hidden
            className="grid h-7 w-7 place-items-center rounded-md bg-indigo-500 text-sm font-bold"
          >
            S
          </span>
          <span className="text-base font-semibold tracking-tight">Switchboard</span>
        </Link>
        <NavLinks />
        <p className="mt-auto px-3 text-xs text-slate-500">Default workspace</p>
      </aside>
      <main className="min-w-0 flex-1 px-8 py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}

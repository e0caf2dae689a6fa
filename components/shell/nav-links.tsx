"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { PendingBadge, usePendingApprovalCount, usePendingTitle } from "./pending-approvals";

export const navItems = [
  { href: "/", label: "Overview" },
  { href: "/servers", label: "Servers" },
  { href: "/tools", label: "Tools" },
  { href: "/principals", label: "Principals" },
  { href: "/playground", label: "Playground" },
  { href: "/agent", label: "Agent" },
  { href: "/approvals", label: "Approvals" },
  { href: "/calls", label: "Calls" },
  { href: "/events", label: "Events" },
  { href: "/settings", label: "Settings" },
  { href: "/api", label: "API" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  const pending = usePendingApprovalCount();
  usePendingTitle(pending);
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5">
      {navItems.map((item) => {
        const isActive = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={isActive ? "page" : undefined}
            className={`flex items-center rounded-md px-3 py-2 text-sm font-medium transition-colors max-md:py-3 ${
              isActive ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"
            }`}
          >
            {item.label}
            {item.href === "/approvals" ? <PendingBadge count={pending} /> : null}
          </Link>
        );
      })}
    </nav>
  );
}

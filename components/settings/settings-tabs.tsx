"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const tabs = [
  { href: "/settings/members", label: "Members" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/secrets", label: "Secrets" },
  { href: "/settings/approvals", label: "Approvals" },
  { href: "/settings/egress", label: "Egress" },
  { href: "/settings/limits", label: "Limits" },
  { href: "/settings/webhooks", label: "Webhooks" },
  { href: "/settings/gateway", label: "Gateway" },
  { href: "/settings/audit", label: "Audit log" },
];

/**
 * The Settings tabs; Instance only for instance owners (for anyone else the page only says who may).
 * On a phone (below `md`) nine tabs do not fit a row: they wrap into a grid of thumb-sized buttons,
 * every one in sight, rather than a strip that hides most of them off the edge.
 */
export function SettingsTabs({ showInstance }: { showInstance: boolean }) {
  const pathname = usePathname();
  const shown = showInstance ? [...tabs, { href: "/settings/instance", label: "Instance" }] : tabs;
  return (
    <nav
      aria-label="Settings"
      className="mb-6 flex gap-1 border-b border-slate-200 max-md:grid max-md:grid-cols-3 max-md:border-b-0"
    >
      {shown.map((tab) => {
        const isActive = pathname.startsWith(tab.href);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={isActive ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium max-md:mb-0 max-md:flex max-md:min-h-11 max-md:items-center max-md:justify-center max-md:rounded-md max-md:border max-md:text-center ${
              isActive
                ? "border-indigo-600 text-indigo-700 max-md:bg-indigo-50"
                : "border-transparent text-slate-600 hover:text-slate-900 max-md:border-slate-200 max-md:bg-white"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const tabs = [
  { href: "/settings/members", label: "Members" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/secrets", label: "Secrets" },
  { href: "/settings/approvals", label: "Approvals" },
  { href: "/settings/egress", label: "Egress" },
  { href: "/settings/webhooks", label: "Webhooks" },
  { href: "/settings/gateway", label: "Gateway" },
  { href: "/settings/audit", label: "Audit log" },
];

/** The Settings tabs; Instance only for instance owners (for anyone else the page only says who may). */
export function SettingsTabs({ showInstance }: { showInstance: boolean }) {
  const pathname = usePathname();
  const shown = showInstance ? [...tabs, { href: "/settings/instance", label: "Instance" }] : tabs;
  return (
    <nav aria-label="Settings" className="mb-6 flex gap-1 border-b border-slate-200">
      {shown.map((tab) => {
        const isActive = pathname.startsWith(tab.href);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={isActive ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
              isActive
                ? "border-indigo-600 text-indigo-700"
                : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

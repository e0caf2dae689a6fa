import Link from "next/link";

const tabs = [
  { id: "queue", label: "Queue", href: "/approvals" },
  { id: "rules", label: "Rules", href: "/approvals?tab=rules" },
] as const;

/** Approvals → Queue | Rules: plain links, so each tab has its own address and works without script. */
export function ApprovalsTabs({ current }: { current: (typeof tabs)[number]["id"] }) {
  return (
    <nav aria-label="Approvals" className="mb-5 flex gap-1 border-b border-slate-200">
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          href={tab.href}
          aria-current={tab.id === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
            tab.id === current
              ? "border-indigo-600 text-indigo-700"
              : "border-transparent text-slate-600 hover:text-slate-900"
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

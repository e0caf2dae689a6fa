import type { Metadata } from "next";
import Link from "next/link";
import { AuditLogTable, auditGroups } from "@/components/settings/audit-log-table";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { pluralize } from "@/components/ui/format";
import { type AuditPage, listAuditEntries } from "@/lib/auth/audit-log";
import { getPageContext } from "@/lib/auth/page-context";
import { isAppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditLogPage({ searchParams }: Props) {
  const { db, tenant, canManage } = await getPageContext();
  if (!canManage) {
    return <EmptyState title="Admins only">The audit log is for this workspace's admins.</EmptyState>;
  }
  const params = await searchParams;
  const one = (name: string) => (typeof params[name] === "string" ? params[name] : undefined);
  const action = one("action") ?? "";
  const cursor = one("cursor");
  // A bad filter or cursor in the URL is said where the entries would be; the filters stay usable.
  let page: AuditPage | { failure: string };
  try {
    page = await listAuditEntries(db, {
      tenantId: tenant.id,
      query: { ...(action ? { action } : {}), ...(cursor ? { cursor } : {}) },
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    // The API's wording ("use nextCursor") is for scripts; a person followed a link.
    page = {
      failure:
        error.fieldErrors?.cursor !== undefined
          ? "This link points into the log at an entry it does not have. Start again from the newest entries (Everything, above)."
          : error.message,
    };
  }
  const hrefFor = (query: Record<string, string | undefined>) => {
    const search = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => Boolean(e[1])),
    );
    return search.size > 0 ? `/settings/audit?${search}` : "/settings/audit";
  };

  return (
    <>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Sign-ins (also failed ones) of this workspace's members, invitations, role changes, API keys and the
        gateway's keyless mapping: who did what, and from where. Tool calls have their own history under
        Calls.
      </p>
      <nav aria-label="Show" className="mb-4 flex flex-wrap gap-2">
        {auditGroups.map((group) => {
          const isActive = group.action === action;
          return (
            <Link
              key={group.label}
              href={hrefFor({ action: group.action })}
              aria-current={isActive ? "page" : undefined}
              className={`rounded-full border px-3 py-1 text-xs font-medium ${
                isActive
                  ? "border-indigo-600 bg-indigo-50 text-indigo-700"
                  : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
              }`}
            >
              {group.label}
            </Link>
          );
        })}
      </nav>
      {"failure" in page ? (
        <Alert>{page.failure}</Alert>
      ) : page.entries.length === 0 ? (
        cursor ? (
          <EmptyState
            title="No older entries"
            action={
              <ButtonLink variant="secondary" href={hrefFor({ action })}>
                Newest
              </ButtonLink>
            }
          />
        ) : (
          <EmptyState title="Nothing recorded yet">
            {action ? "Nothing of this kind has been recorded in this workspace." : null}
          </EmptyState>
        )
      ) : (
        <>
          <AuditLogTable entries={page.entries} />
          <div className="mt-3 flex items-center justify-between text-xs text-slate-500">
            <span>
              {pluralize(page.entries.length, "entry", "entries")} shown
              {cursor ? " (older page)" : ""}
            </span>
            <span className="flex gap-2">
              {cursor ? (
                <ButtonLink variant="secondary" href={hrefFor({ action })}>
                  Newest
                </ButtonLink>
              ) : null}
              {page.nextCursor ? (
                <ButtonLink variant="secondary" href={hrefFor({ action, cursor: page.nextCursor })}>
                  Older entries
                </ButtonLink>
              ) : null}
            </span>
          </div>
        </>
      )}
    </>
  );
}

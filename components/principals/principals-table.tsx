"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import { principalsListQuery } from "./principal-queries";

const SHOWN_PATTERNS = 3;

export function PrincipalsTable({ canManage }: { canManage: boolean }) {
  const { data: principals, error } = useQuery(principalsListQuery());

  if (!principals) return <QueryFallback error={error} what="principals" />;
  if (principals.length === 0) {
    return (
      <EmptyState title="No principals yet">
        A principal is an agent or MCP client with keys of its own, limited to the tools you grant it.
        {canManage ? " Create one above." : " Ask an admin to create one."}
      </EmptyState>
    );
  }

  return (
    <DataTable
      columns={[
        { label: "Principal", className: "w-[32%]" },
        { label: "Grants" },
        { label: "Active keys", className: "w-[12%]" },
        { label: "Created", className: "w-[18%]" },
      ]}
    >
      {principals.map((principal) => {
        const activeKeys = principal.keys.filter((key) => !key.revokedAt).length;
        const extra = principal.grants.length - SHOWN_PATTERNS;
        return (
          <tr
            key={principal.id}
            data-testid={`principal-row-${principal.name}`}
            className="hover:bg-slate-50/60"
          >
            <td className="px-4 py-3 align-top">
              <Link
                href={`/principals/${encodeURIComponent(principal.id)}`}
                className="font-medium text-slate-900 hover:text-indigo-700 hover:underline"
              >
                {principal.name}
              </Link>
              {principal.description ? (
                <p className="mt-1 line-clamp-2 text-xs text-slate-500">{principal.description}</p>
              ) : null}
            </td>
            <td className="px-4 py-3 align-top">
              {principal.grants.length === 0 ? (
                <span className="text-xs text-slate-500">none — can call nothing</span>
              ) : (
                <div className="flex flex-wrap gap-1">
                  {principal.grants.slice(0, SHOWN_PATTERNS).map((pattern) => (
                    <code
                      key={pattern}
                      className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
                    >
                      {pattern}
                    </code>
                  ))}
                  {extra > 0 ? <span className="text-xs text-slate-500">+{extra} more</span> : null}
                </div>
              )}
            </td>
            <td className="px-4 py-3 align-top">
              {activeKeys > 0 ? <Badge tone="green">{activeKeys}</Badge> : <Badge tone="slate">none</Badge>}
            </td>
            <td className="px-4 py-3 align-top text-slate-600">
              <Time iso={principal.createdAt} />
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

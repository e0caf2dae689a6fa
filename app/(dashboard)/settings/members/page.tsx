import type { Metadata } from "next";
import { InvitePanel } from "@/components/settings/invite-panel";
import { MemberRowActions } from "@/components/settings/member-row-actions";
import { PendingInvitations } from "@/components/settings/pending-invitations";
import { RoleBadge } from "@/components/settings/role-badge";
import { DataTable } from "@/components/ui/data-table";
import { pluralize } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import { listPendingInvitations } from "@/lib/auth/invitations";
import { listMembers } from "@/lib/auth/members";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "Members" };
export const dynamic = "force-dynamic";

export default async function MembersPage() {
  const { db, tenant, actor, canManage } = await getPageContext();
  const [members, invitations] = await Promise.all([
    listMembers(db, { tenantId: tenant.id }),
    canManage ? listPendingInvitations(db, { tenantId: tenant.id }) : [],
  ]);
  return (
    <>
      {canManage ? <InvitePanel /> : null}
      <PendingInvitations invitations={invitations} />
      <h2 className="mb-2 text-sm font-semibold text-slate-900">{pluralize(members.length, "member")}</h2>
      <DataTable
        columns={[
          { label: "Member" },
          { label: "Role" },
          { label: "Joined" },
          { label: "Last sign-in" },
          { label: "Actions", srOnly: true },
        ]}
      >
        {members.map((m) => (
          <tr key={m.userId} data-testid={`member-${m.email}`}>
            <td className="px-4 py-3">
              <div className="font-medium text-slate-900">
                {m.name}{" "}
                {m.userId === actor.userId ? <span className="text-xs text-slate-500">(you)</span> : null}
              </div>
              <div className="text-xs text-slate-500">{m.email}</div>
            </td>
            <td className="px-4 py-3">
              <RoleBadge role={m.role} />
            </td>
            <td className="px-4 py-3 text-slate-600">
              <Time iso={m.joinedAt} />
            </td>
            <td className="px-4 py-3 text-slate-600">
              {m.lastSignedInAt ? <Time iso={m.lastSignedInAt} /> : "never"}
            </td>
            <td className="px-4 py-3">
              {canManage ? (
                <MemberRowActions
                  userId={m.userId}
                  name={m.name}
                  role={m.role}
                  isSelf={m.userId === actor.userId}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

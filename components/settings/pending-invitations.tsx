import { DataTable } from "@/components/ui/data-table";
import { Time } from "@/components/ui/time";
import type { PendingInvitationDto } from "@/lib/auth/types";
import { RevokeInvitationButton } from "./revoke-invitation-button";
import { RoleBadge } from "./role-badge";

/** Links someone may still join with; an admin revokes one that leaked or went astray. */
export function PendingInvitations({ invitations }: { invitations: PendingInvitationDto[] }) {
  if (invitations.length === 0) return null;
  return (
    <section className="mb-6" aria-labelledby="pending-invitations">
      <h2 id="pending-invitations" className="mb-2 text-sm font-semibold text-slate-900">
        Pending invitations
      </h2>
      <DataTable
        columns={[
          { label: "Role" },
          { label: "Invited by" },
          { label: "Created" },
          { label: "Expires" },
          { label: "Actions", srOnly: true },
        ]}
      >
        {invitations.map((invitation) => (
          <tr key={invitation.id} data-testid={`invitation-${invitation.id}`}>
            <td className="px-4 py-3">
              <RoleBadge role={invitation.role} />
            </td>
            <td className="px-4 py-3 text-slate-700">
              {invitation.invitedBy ?? "an API key, or a removed account"}
            </td>
            <td className="px-4 py-3 text-slate-600">
              <Time iso={invitation.createdAt} />
            </td>
            <td className="px-4 py-3 text-slate-600">
              <Time iso={invitation.expiresAt} />
            </td>
            <td className="px-4 py-3 text-right">
              <RevokeInvitationButton id={invitation.id} role={invitation.role} />
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { Time } from "@/components/ui/time";
import type { AuditEntryDto } from "@/lib/auth/types";

/** What an entry means, said as an operator would; an action not listed here shows as recorded. */
const actionLabels: Record<string, string> = {
  "auth.signed_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.signed_out": "Signed out",
  "auth.setup_completed": "Set up Switchboard",
  "member.invited": "Made an invitation link",
  "member.invitation_revoked": "Revoked an invitation link",
  "member.joined": "Joined",
  "member.role_changed": "Changed a role",
  "member.removed": "Removed a member",
  "api_key.created": "Created an API key",
  "api_key.revoked": "Revoked an API key",
  "api_key.deactivated": "An API key stopped (its creator lost the role)",
  "api_key.reactivated": "An API key works again",
  "server.registered": "Registered a server",
  "server.updated": "Changed a server",
  "server.deleted": "Deleted a server",
  "server.authorized": "Connected a server's OAuth authorization",
  "server.deauthorized": "Disconnected a server's OAuth authorization",
  "secret.set": "Set a secret",
  "secret.deleted": "Deleted a secret",
  "principal.created": "Created a principal",
  "principal.deleted": "Deleted a principal",
  "principal.grants_changed": "Changed a principal's grants",
  "tool.policy_changed": "Changed a tool's effect or approval",
  "call.arguments_edited": "Approved a call with edited arguments",
  "tool.quarantined": "Quarantined a tool (calls refused until reviewed)",
  "tool.quarantine_cleared": "Reviewed a quarantined tool and cleared it",
  "policy.approvals_changed": "Changed the approval policy",
  "policy.egress_changed": "Changed the egress policy",
  "policy.limits_changed": "Changed the call limits",
  "allow_rule.created": "Let a principal call a tool without approval for a while",
  "allow_rule.revoked": "Revoked an allow rule",
  "elicitation.answered": "Answered a server's question during a call",
  "gateway.loopback_mapping_changed": "Changed the gateway's keyless mapping",
  "gateway.name_budget_changed": "Changed the gateway's name budget (tools renamed)",
  "workspace.created": "Created the workspace",
  "instance.owner_added": "Named an instance owner",
  "instance.owner_removed": "Removed an instance owner",
  "instance.policy_changed": "Changed the instance policy",
  "webhook.created": "Added a webhook",
  "webhook.updated": "Changed a webhook",
  "webhook.deleted": "Deleted a webhook",
  "model_connection.created": "Added a model connection",
  "model_connection.deleted": "Removed a model connection",
  "agent_run.started": "Started an agent run",
  "agent_run.cancelled": "Cancelled an agent run",
};

/** The filter groups: an action's part before the dot. */
export const auditGroups = [
  { action: "", label: "Everything" },
  { action: "auth", label: "Sign-ins" },
  { action: "member", label: "Members" },
  { action: "api_key", label: "API keys" },
  { action: "server", label: "Servers" },
  { action: "secret", label: "Secrets" },
  { action: "principal", label: "Principals" },
  { action: "tool", label: "Tools" },
  { action: "call", label: "Calls" },
  { action: "allow_rule", label: "Allow rules" },
  { action: "elicitation", label: "Questions" },
  { action: "webhook", label: "Webhooks" },
  { action: "policy", label: "Policies" },
  { action: "gateway", label: "Gateway" },
  { action: "instance", label: "Instance" },
] as const;

const actorKinds: Record<string, string> = {
  operator: "person",
  api_key: "API key",
  system: "system",
  anonymous: "not signed in",
};

/** Who, when no name is known: an account or key deleted since, Switchboard itself, a stranger. */
const actorFallbacks: Record<string, string> = {
  operator: "a removed account",
  api_key: "a removed key",
  system: "Switchboard",
  anonymous: "someone",
};

export function AuditLogTable({ entries }: { entries: AuditEntryDto[] }) {
  return (
    <DataTable
      columns={[
        { label: "When", className: "w-[15%]" },
        { label: "Who", className: "w-[18%]" },
        { label: "What", className: "w-[22%]" },
        { label: "Subject", className: "w-[20%]" },
        { label: "Detail", className: "w-[15%]" },
        { label: "From", className: "w-[10%]" },
      ]}
      fixed
    >
      {entries.map((entry) => (
        <tr key={entry.id} data-testid={`audit-${entry.action}`} className="align-top">
          <td className="px-4 py-3 text-slate-600">
            <Time iso={entry.at} />
          </td>
          <td className="px-4 py-3">
            <div className="truncate text-slate-900" title={entry.actor.name ?? undefined}>
              {entry.actor.name ?? actorFallbacks[entry.actor.kind] ?? "—"}
            </div>
            <div className="text-xs text-slate-500">{actorKinds[entry.actor.kind] ?? entry.actor.kind}</div>
          </td>
          <td className="px-4 py-3">
            {entry.action === "auth.sign_in_failed" ? (
              <Badge tone="red">{actionLabels[entry.action]}</Badge>
            ) : (
              <span className="text-slate-900">{actionLabels[entry.action] ?? entry.action}</span>
            )}
          </td>
          <td className="break-all px-4 py-3 text-slate-700">{entry.subject ?? "—"}</td>
          <td className="wrap-anywhere px-4 py-3 text-slate-600">{entry.detail ?? "—"}</td>
          <td className="break-all px-4 py-3 font-mono text-xs text-slate-500">{entry.ipAddress ?? "—"}</td>
        </tr>
      ))}
    </DataTable>
  );
}

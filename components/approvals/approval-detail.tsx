import Link from "next/link";
import { CallKindBadge } from "@/components/calls/call-status-badge";
import { JsonView } from "@/components/calls/json-view";
import { RelativeTime } from "@/components/calls/relative-time";
import { SectionTitle } from "@/components/ui/section-title";
import { EffectBadge } from "@/components/ui/tool-badges";
import type { ApprovalDto } from "@/lib/approvals/types";
import { type Decision, DecisionForm, type DecisionResult } from "./decision-form";
import { ExpiryCountdown } from "./expiry-countdown";

/** Everything an approver needs to decide one call: what, who, why it is held, and its arguments. */
export function ApprovalDetail({
  approval,
  now,
  canDecide,
  onDecided,
}: {
  approval: ApprovalDto;
  now: number;
  canDecide: boolean;
  onDecided: (approval: ApprovalDto, decision: Decision, result: DecisionResult) => void;
}) {
  const { call } = approval;
  return (
    <article
      aria-label={`Approval for ${call.tool}`}
      data-testid="approval-detail"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <header>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="break-all font-mono text-base font-semibold text-slate-900">{call.tool}</h2>
          <EffectBadge effect={call.effect} />
          {call.kind !== "tool_call" ? <CallKindBadge kind={call.kind} /> : null}
        </div>
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Requested by</dt>
          <dd className="text-slate-900">
            {call.requester.name}{" "}
            <span className="text-xs text-slate-500">
              ({call.requester.kind === "principal" ? "agent" : "operator"})
            </span>
          </dd>
          <dt className="text-slate-500">Server</dt>
          <dd>
            {call.serverName ? (
              <Link href={`/servers/${call.serverName}`} className="text-indigo-700 hover:underline">
                {call.serverName}
              </Link>
            ) : (
              <span className="text-slate-500">(removed)</span>
            )}
            <span className="text-slate-500"> · tool </span>
            <code className="font-mono text-xs">{call.toolName}</code>
          </dd>
          <dt className="text-slate-500">Waiting</dt>
          <dd className="text-slate-900">
            <RelativeTime iso={approval.createdAt} now={now} /> ·{" "}
            <ExpiryCountdown expiresAt={approval.expiresAt} now={now} />
          </dd>
          {approval.count > 1 ? (
            <>
              <dt className="text-slate-500">Requested</dt>
              <dd className="text-slate-900" data-testid="approval-duplicates">
                {approval.count} times with the same arguments (calls{" "}
                {[call.id, ...approval.duplicateCallIds].map((id, i) => (
                  <span key={id}>
                    {i > 0 ? ", " : ""}
                    <Link href={`/calls/${id}`} className="font-mono text-xs text-indigo-700 hover:underline">
                      {id.slice(0, 8)}
                    </Link>
                  </span>
                ))}
                ). Your decision applies to each of them: approving runs the tool {approval.count} times.
              </dd>
            </>
          ) : null}
          {approval.requiredBecause ? (
            <>
              <dt className="text-slate-500">Held because</dt>
              <dd className="text-slate-900">{approval.requiredBecause}</dd>
            </>
          ) : null}
        </dl>
        <Link
          href={`/calls/${call.id}`}
          className="mt-2 inline-block text-xs text-indigo-700 hover:underline"
        >
          Open the call's page →
        </Link>
      </header>
      <SectionTitle>Arguments</SectionTitle>
      <JsonView value={call.arguments} label="Arguments" emptyText="Called without arguments." />
      {canDecide ? (
        <div className="mt-5 border-t border-slate-100 pt-4">
          <DecisionForm key={approval.id} approval={approval} onDecided={onDecided} />
        </div>
      ) : (
        <p className="mt-5 border-t border-slate-100 pt-4 text-sm text-slate-500">
          You can read the queue; deciding needs the approver or admin role.
        </p>
      )}
    </article>
  );
}

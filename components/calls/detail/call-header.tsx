import Link from "next/link";
import { EffectBadge } from "@/components/ui/tool-badges";
import type { CallDto } from "@/lib/calls/types";
import { reachedTool } from "../call-format";
import { CallKindBadge, CallOutcomeBadge } from "../call-status-badge";
import { hasNotableEnding, OutcomeNote } from "../outcome-note";

export function CallHeader({ call }: { call: CallDto }) {
  return (
    <header className="mb-6">
      <Link href="/calls" className="text-sm text-slate-500 hover:text-slate-800">
        ← Calls
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="break-all font-mono text-xl font-semibold tracking-tight text-slate-900">
          {call.tool}
        </h1>
        <span data-testid="call-status">
          <CallOutcomeBadge outcome={call.outcome} />
        </span>
        <CallKindBadge kind={call.kind} />
        {reachedTool(call) ? <EffectBadge effect={call.effect} /> : null}
      </div>
      <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <Meta label="Server">
          {!reachedTool(call) ? (
            "none: refused before its tool was looked up"
          ) : call.serverName ? (
            <Link href={`/servers/${call.serverName}`} className="text-indigo-700 hover:underline">
              {call.serverName}
            </Link>
          ) : (
            "(removed)"
          )}
        </Meta>
        <Meta label="Requested by">
          {call.requester.name} ({call.requester.kind === "principal" ? "agent" : "operator"})
        </Meta>
        <Meta label="Call id">
          <code className="font-mono text-xs">{call.id}</code>
        </Meta>
        {call.allowedByRule ? (
          <Meta label="Approval">
            <Link
              href={`/approvals?tab=rules#rule-${call.allowedByRule}`}
              className="text-indigo-700 hover:underline"
              data-testid="allowed-by-rule"
            >
              allowed by rule <code className="font-mono text-xs">{call.allowedByRule.slice(0, 8)}</code>
            </Link>
          </Meta>
        ) : null}
        {call.idempotencyKey ? (
          <Meta label="Idempotency key">
            <code className="font-mono text-xs">{call.idempotencyKey}</code>
          </Meta>
        ) : null}
      </dl>
      {hasNotableEnding(call) ? (
        <div className="mt-4">
          <OutcomeNote call={call} />
        </div>
      ) : null}
    </header>
  );
}

function Meta({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

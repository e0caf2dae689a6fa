import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import type { ReplicaSummary, ServerDto, ServerReplicaDto } from "@/lib/servers/types";
import { ReplicaSplitBadge } from "../replica-summary";
import { ServerStatusBadge, transportLabels } from "../server-status-badge";
import { ServerOperations } from "./server-operations";

export function ServerHeader({
  server,
  status,
  replicas,
  canManage,
}: {
  server: ServerDto;
  status: string;
  /** each replica's state (the diagnostics' when loaded: this replica's pool is fresher) */
  replicas: { list: readonly ServerReplicaDto[]; summary: ReplicaSummary };
  canManage: boolean;
}) {
  return (
    <header className="mb-6">
      <Link href="/servers" className="text-sm text-slate-500 hover:text-slate-800">
        ← Servers
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
              {server.displayName ?? server.name}
            </h1>
            <span data-testid="server-status">
              <ServerStatusBadge status={status} />
            </span>
            <ReplicaSplitBadge
              replicas={replicas.list}
              summary={replicas.summary}
              testId="server-replica-split"
            />
            <Badge tone="blue">{transportLabels[server.transport] ?? server.transport}</Badge>
          </div>
          <p className="mt-0.5 font-mono text-xs text-slate-500">{server.name}</p>
          {server.description ? (
            <p className="mt-2 max-w-2xl text-sm text-slate-600">{server.description}</p>
          ) : null}
          {/* The whole command line (quoted as a shell needs it) or URL: this page is where it is read
              in full, so it wraps rather than ends in "…". */}
          <code
            className="mt-2 block max-w-3xl whitespace-pre-wrap break-all rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-700"
            data-testid="server-target"
          >
            {server.target}
          </code>
          {server.transport === "stdio" && (server.programPath || server.launchApprovedByOwner) ? (
            <p className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-slate-600">
              {server.programPath ? (
                <span data-testid="server-program-path">
                  Runs{" "}
                  <code
                    className="break-all font-mono text-slate-800"
                    title="Resolved on Switchboard's PATH when saved"
                  >
                    {server.programPath}
                  </code>
                </span>
              ) : null}
              {server.launchApprovedByOwner ? (
                <Badge
                  tone="neutral"
                  title="Saved by an instance owner: launch specs for instance owners only allow it"
                >
                  launch set by an instance owner
                </Badge>
              ) : null}
            </p>
          ) : null}
        </div>
        {canManage ? (
          <ButtonLink variant="secondary" href={`/servers/${server.name}/edit`}>
            Edit
          </ButtonLink>
        ) : null}
      </div>
      {canManage ? <ServerOperations name={server.name} isEnabled={server.enabled} /> : null}
    </header>
  );
}

import { Badge } from "@/components/ui/badge";
import { CopyField } from "@/components/ui/copy-field";
import type { GatewayStatus } from "@/lib/gateway/types";

/** Whether /mcp answers here, where it is, and how to point Claude Code at it. */
export function GatewayStatusCard({ gateway }: { gateway: GatewayStatus }) {
  return (
    <section
      aria-labelledby="gateway-status-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="gateway-status-heading" className="text-sm font-semibold text-slate-900">
          MCP gateway
        </h2>
        <span data-testid="gateway-enabled">
          {gateway.isEnabled ? <Badge tone="green">On</Badge> : <Badge tone="neutral">Off</Badge>}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {gateway.isEnabled ? (
          <>
            MCP clients reach every tool a principal is granted through one endpoint, under the same grants,
            approvals and call history as everything else.
          </>
        ) : (
          <>
            Turned off with <code className="font-mono">SWITCHBOARD_MCP_ENABLED=false</code>: the URLs below
            answer 404 until Switchboard is restarted without it.
          </>
        )}
      </p>
      <dl className="mt-4 grid grid-cols-1 gap-4 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
        <dt className="font-medium text-slate-800">All granted tools</dt>
        <dd>
          <CopyField id="gateway-url" label="Gateway URL" value={gateway.url} />
          <p className="mt-1 text-xs text-slate-500">
            Tools are named <code className="font-mono">&lt;server&gt;__&lt;tool&gt;</code>, within the name
            budget below.
          </p>
        </dd>
        <dt className="font-medium text-slate-800">Discovery mode</dt>
        <dd>
          <CopyField id="gateway-discover-url" label="Discovery URL" value={gateway.discoverUrl} />
          <p className="mt-1 text-xs text-slate-500">
            The same tools, found instead of listed: the client sees six tools and searches, describes and
            runs the rest with <code className="font-mono">switchboard__search_tools</code>,{" "}
            <code className="font-mono">switchboard__describe_tool</code> and{" "}
            <code className="font-mono">switchboard__call_tool</code>. For agents granted more tools than a
            model&apos;s context holds.
          </p>
        </dd>
        <dt className="font-medium text-slate-800">One server</dt>
        <dd>
          <code className="font-mono text-xs text-slate-800" data-testid="gateway-server-url">
            {gateway.serverUrlTemplate.replace("{name}", "<name>")}
          </code>
          <p className="mt-1 text-xs text-slate-500">That server&apos;s tools under their own names.</p>
        </dd>
        <dt className="font-medium text-slate-800">Approval wait</dt>
        <dd className="text-slate-700" data-testid="gateway-approval-wait">
          {gateway.approvalWaitSeconds} seconds
          <p className="mt-1 text-xs text-slate-500">
            A call still waiting for approval after this returns its call id; the client collects the result
            with <code className="font-mono">switchboard__wait_call</code> (
            <code className="font-mono">SWITCHBOARD_MCP_APPROVAL_WAIT_SECONDS</code>).
          </p>
        </dd>
        <dt className="font-medium text-slate-800">Claude Code</dt>
        <dd className="space-y-2">
          <CopyField id="gateway-claude-command" label="Claude Code command" value={gateway.claudeCommand} />
          <CopyField
            id="gateway-discover-claude-command"
            label="Claude Code command, discovery mode"
            value={gateway.discoverClaudeCommand}
          />
          <p className="mt-1 text-xs text-slate-500">
            Replace <code className="font-mono">&lt;key&gt;</code> with a gateway key of a principal
            (Principals → a principal → Keys). Cursor and VS Code: see docs/gateway.md or{" "}
            <code className="font-mono">switchboard export</code>.
          </p>
        </dd>
      </dl>
    </section>
  );
}

import { Time } from "@/components/ui/time";
import type { ServerReplicaDto } from "@/lib/servers/types";
import type { ServerDiagnosticsDto } from "../server-queries";

const failureTitles: Record<string, string> = {
  "crash-loop": "Crash loop: the server keeps failing",
  disconnected: "Disconnected",
  degraded: "Degraded: the last health check failed",
};

/** How a server disabled by a policy sweep is noted (lib/servers/policy-sweep.ts). */
const POLICY_DISABLED = "Disabled: ";

/**
 * A failing server's last error, up front: the first thing an operator needs. With several
 * replicas the failure may be another replica's (the server's state is the worst live one): then
 * it names that replica and shows its error, not this replica's healthy diagnostics.
 */
export function FailureCallout({
  status,
  serverError,
  diagnostics,
  replicas,
  onShowDiagnostics,
}: {
  status: string;
  serverError: string | null;
  diagnostics: ServerDiagnosticsDto | undefined;
  replicas: readonly ServerReplicaDto[];
  onShowDiagnostics: () => void;
}) {
  const failing = replicas.filter((replica) => replica.live && replica.state === status);
  const elsewhere =
    diagnostics && failing.length > 0 && !failing.some((replica) => replica.id === diagnostics.replica)
      ? failing
      : undefined;
  const elsewhereError = elsewhere?.find((replica) => replica.lastError);
  const lastError = elsewhereError?.lastError
    ? { message: elsewhereError.lastError, at: elsewhereError.updatedAt ?? undefined }
    : (diagnostics?.lastError ?? (serverError ? { message: serverError, at: undefined } : null));
  if (status === "disabled" && lastError?.message.startsWith(POLICY_DISABLED)) {
    return <DisabledByPolicy message={lastError.message} at={lastError.at} />;
  }
  const title = failureTitles[status];
  if (!title || !lastError) return null;
  // This replica's connection details describe a connection that works: not shown against another's failure.
  const live = elsewhere ? undefined : diagnostics?.live;
  const exit = elsewhere ? undefined : diagnostics?.exit;

  return (
    <div
      role="alert"
      data-testid="server-last-error"
      className="mb-6 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <p className="flex flex-wrap items-baseline gap-x-2 font-medium">
        {title}
        {elsewhere ? (
          <span data-testid="failing-replicas">on {elsewhere.map((replica) => replica.id).join(", ")}</span>
        ) : null}
        {lastError.at ? (
          <span className="text-xs font-normal text-red-700">
            · last error at <Time iso={lastError.at} />
          </span>
        ) : null}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{lastError.message}</p>
      <p className="mt-2 flex flex-wrap gap-x-3 text-xs text-red-700">
        {exit && (exit.code !== null || exit.signal) ? (
          <span>Exited with {exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}</span>
        ) : null}
        {live?.recentFailures ? <span>{live.recentFailures} recent failures</span> : null}
        {live?.nextRetryAt ? (
          <span>
            Next retry at <Time iso={live.nextRetryAt} />
          </span>
        ) : null}
        {elsewhere ? (
          <span>
            Its exit and stderr are kept by that replica; this page was answered by {diagnostics?.replica}.
          </span>
        ) : (
          <button
            type="button"
            onClick={onShowDiagnostics}
            className="font-medium underline hover:text-red-900"
          >
            Open diagnostics and stderr
          </button>
        )}
      </p>
    </div>
  );
}

/**
 * A server a policy no longer allows: no retry is coming and none would help. What was refused and
 * who can change it, in the note the sweep left ("Disabled: the instance policy no longer allows…").
 */
function DisabledByPolicy({ message, at }: { message: string; at: string | undefined }) {
  const reason = message.slice(POLICY_DISABLED.length);
  const byInstance = reason.startsWith("the instance policy");
  // The reason says who can change the policy; this only adds what happens until then.
  return (
    <div
      role="status"
      data-testid="server-last-error"
      className="mb-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="flex flex-wrap items-baseline gap-x-2 font-medium">
        Disabled by {byInstance ? "the instance policy" : "this workspace's egress policy"}
        {at ? (
          <span className="text-xs font-normal text-amber-800">
            · at <Time iso={at} />
          </span>
        ) : null}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words text-xs">
        {reason.charAt(0).toUpperCase() + reason.slice(1)}
      </p>
      <p className="mt-2 text-xs text-amber-800">
        Switchboard will not start it while the policy refuses it. Change the server or the policy, then
        enable the server again (Edit → Enabled).
      </p>
    </div>
  );
}

"use client";

import Link from "next/link";
import { Time } from "@/components/ui/time";
import type { ServerDiagnosticsDto } from "../server-queries";

type CrashCall = ServerDiagnosticsDto["crashedDuringCalls"][number];

/**
 * The calls running when the server's process exited on its own: who may have crashed it. Tool
 * and principal names come from the server and from admins: shown as text.
 */
export function CrashedCalls({ calls }: { calls: CrashCall[] }) {
  if (calls.length === 0) return <span className="text-slate-500">none recorded</span>;
  return (
    <ul className="space-y-1 text-xs" aria-label="Calls during which the server crashed">
      {calls.map((call) => (
        <li key={`${call.callId} ${call.crashedAt}`}>
          tool <code className="font-mono">{call.tool}</code> by{" "}
          {call.requester ? (
            <Requester requester={call.requester} />
          ) : (
            <span className="italic">unknown</span>
          )}{" "}
          at <Time iso={call.crashedAt} /> ·{" "}
          <Link href={`/calls/${call.callId}`} className="font-medium text-indigo-700 hover:underline">
            call
          </Link>
          <span className="text-slate-500">
            {" "}
            (exit {call.exitCode !== null ? `code ${call.exitCode}` : `signal ${call.exitSignal ?? "?"}`})
          </span>
        </li>
      ))}
    </ul>
  );
}

function Requester({ requester }: { requester: NonNullable<CrashCall["requester"]> }) {
  const label = `${requester.kind === "principal" ? "principal" : "operator"} ${requester.name}`;
  if (requester.kind !== "principal") return <span>{label}</span>;
  return (
    <Link href={`/principals/${requester.id}`} className="font-medium text-indigo-700 hover:underline">
      {label}
    </Link>
  );
}

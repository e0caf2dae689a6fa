"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { isRecord } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import { Time } from "@/components/ui/time";
import { type ServerDiagnosticsDto, serverDiagnosticsQuery } from "../server-queries";
import { ServerStatusBadge } from "../server-status-badge";
import { useServerPoll } from "../use-live-servers";
import { CrashedCalls } from "./crashed-calls";
import { StderrTail } from "./stderr-tail";

export function DiagnosticsTab({ name }: { name: string }) {
  const { data, error } = useQuery({ ...serverDiagnosticsQuery(name), refetchInterval: useServerPoll() });
  if (!data) return <QueryFallback error={error} what="diagnostics" />;
  const { live, lastError, exit } = data;
  const hasExit = exit !== null && (exit.code !== null || exit.signal !== null);
  // Live exits carry their time; the persisted fallback does not.
  const exitAt = exit && "at" in exit && typeof exit.at === "string" ? exit.at : null;
  const mono = "font-mono text-xs break-all";

  return (
    <div>
      {!live ? (
        <div className="mb-4">
          <Alert tone="info">
            No live connection details: the connection pool is not running in this process or does not know
            this server. Showing the last recorded state.
          </Alert>
        </div>
      ) : null}
      <dl className="grid gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-5 text-sm shadow-sm sm:grid-cols-[12rem_1fr]">
        <Item label="State">
          <ServerStatusBadge status={data.state} />
        </Item>
        <Item label="Answered by">
          <span>
            replica <code className={mono}>{data.replica}</code>
            {data.replicaSummary.of > 1 ? (
              <span className="text-xs text-slate-500">
                {" "}
                · the details below are this replica's; {data.replicaSummary.of} replicas are live
              </span>
            ) : null}
          </span>
        </Item>
        <Item label="Last error">
          {lastError ? (
            <>
              <p className="whitespace-pre-wrap break-words font-mono text-xs text-red-700">
                {lastError.message}
              </p>
              <p className="mt-0.5 text-xs text-slate-500">
                at <Time iso={lastError.at} />
              </p>
            </>
          ) : null}
        </Item>
        <Item label="Exit">
          {hasExit ? (
            <span>
              {exit.code !== null ? `code ${exit.code}` : null}
              {exit.code !== null && exit.signal ? " · " : null}
              {exit.signal ? `signal ${exit.signal}` : null}
              {exitAt ? (
                <span className="text-xs text-slate-500">
                  {" "}
                  at <Time iso={exitAt} />
                </span>
              ) : null}
            </span>
          ) : null}
        </Item>
        <Item label={live?.url ? "URL" : "Command line"}>
          {live?.commandLine || live?.url ? (
            <code className={mono}>{live.commandLine ?? live.url}</code>
          ) : null}
        </Item>
        <Item label="Process id">{live?.pid ? <code className={mono}>{live.pid}</code> : null}</Item>
        <Item label="Connected at">{live?.connectedAt ? <Time iso={live.connectedAt} /> : null}</Item>
        <Item label="Server">{live?.serverInfo ? <ServerInfo info={live.serverInfo} /> : null}</Item>
        <Item label="Protocol version">
          {live?.protocolVersion ? <code className={mono}>{live.protocolVersion}</code> : null}
        </Item>
        <Item label="Capabilities">
          {live?.capabilities ? <Capabilities capabilities={live.capabilities} /> : null}
        </Item>
        <Item label="Recent failures">
          {live ? (
            <span>
              {live.recentFailures}
              {live.nextRetryAt ? (
                <span className="text-xs text-slate-500">
                  {" "}
                  · next retry at <Time iso={live.nextRetryAt} />
                </span>
              ) : null}
            </span>
          ) : null}
        </Item>
        <Item label="Crashed during calls">
          <CrashedCalls calls={data.crashedDuringCalls} />
        </Item>
      </dl>
      <SectionTitle aside="scrubbed of secrets; untrusted output">stderr tail</SectionTitle>
      <StderrTail text={data.stderrTail} />
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-900">{children ?? <span className="text-slate-400">—</span>}</dd>
    </>
  );
}

type Live = NonNullable<ServerDiagnosticsDto["live"]>;

function ServerInfo({ info }: { info: NonNullable<Live["serverInfo"]> }) {
  return (
    <span>
      {info.title ? `${info.title} · ` : null}
      <code className="font-mono text-xs">{info.name}</code>{" "}
      <span className="text-xs text-slate-500">v{info.version}</span>
    </span>
  );
}

/** `resources (subscribe, listChanged)`: each capability with the sub-features it turns on. */
function Capabilities({ capabilities }: { capabilities: NonNullable<Live["capabilities"]> }) {
  const entries = Object.entries(capabilities).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return <span className="text-slate-400">none declared</span>;
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 font-mono text-xs">
      {entries.map(([key, value]) => {
        const flags = isRecord(value)
          ? Object.entries(value).flatMap(([flag, on]) => (on === true ? [flag] : []))
          : [];
        return (
          <li key={key}>
            {key}
            {flags.length ? <span className="text-slate-500"> ({flags.join(", ")})</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

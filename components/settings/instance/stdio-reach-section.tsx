import { Badge } from "@/components/ui/badge";
import type { StdioReach } from "@/lib/upstream/types";
import { SettingsSection } from "./settings-section";

/** Who stdio servers run as on this machine, what that leaves them, and where programs are looked up. */
export function StdioReachSection({ stdio, searchPath }: { stdio: StdioReach; searchPath: string }) {
  const entries = searchPath.split(":").filter(Boolean);
  return (
    <SettingsSection
      id="stdio-reach"
      title="What a stdio server can reach"
      why="A stdio server is a program running on this machine: what its user may read, it may read, whatever its launch spec says."
    >
      <dl className="grid grid-cols-1 gap-x-6 gap-y-4 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
        <dt className="font-medium text-slate-800">Runs as</dt>
        <dd className="space-y-2 text-slate-700">
          <p className="flex flex-wrap items-center gap-2">
            <span data-testid="stdio-runs-as">{stdio.runsAs}</span>
            {stdio.isolated ? (
              <Badge tone="green" title="Another user than Switchboard's">
                isolated
              </Badge>
            ) : (
              <Badge tone="amber" title="The same user as Switchboard">
                same user
              </Badge>
            )}
          </p>
          {stdio.notes.map((note) => (
            <p key={note} className="text-slate-600">
              {note}
            </p>
          ))}
        </dd>
        <dt className="font-medium text-slate-800">Programs are found on</dt>
        <dd>
          {entries.length === 0 ? (
            <p className="text-slate-600">
              An empty PATH: only launch specs naming an absolute program path can run.
            </p>
          ) : (
            <>
              <ol className="space-y-0.5 break-all font-mono text-xs text-slate-800">
                {entries.map((entry, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: PATH may list a folder twice; order is the point
                  <li key={index}>
                    {entry}
                    {entry.startsWith("/") ? null : (
                      <span className="ml-2 font-sans text-slate-500">(relative: skipped)</span>
                    )}
                  </li>
                ))}
              </ol>
              <p className="mt-1 text-xs text-slate-500">
                Switchboard&apos;s own PATH, searched in this order when a server is saved; a server&apos;s
                env PATH never changes which program runs.
              </p>
            </>
          )}
        </dd>
      </dl>
    </SettingsSection>
  );
}

/**
 * Who makes room when a new gateway session would pass a cap — a pure decision, so it can be
 * tested as a table. One process holds at most `perPrincipal` sessions of one principal,
 * `perWorkspace` of one workspace and `perProcess` in all (SWITCHBOARD_MCP_MAX_SESSIONS*).
 *
 * Decided: a new session only ever pushes out a session of its own kind — the oldest idle one of
 * the same principal (its cap), else of the same workspace (the workspace's cap, and the process's
 * cap too). It never closes another workspace's session: one tenant cannot evict another. When no
 * such session is idle (each has a request running or an open stream), the new one is refused
 * (429, naming the cap) rather than answered without a session: a client that asked for a session
 * should learn it did not get one.
 */

export type SessionCaps = { perProcess: number; perWorkspace: number; perPrincipal: number };
export type SessionCap = "principal" | "workspace" | "process";

/** What the decision needs of an open session; `idleSince` is undefined while it is busy. */
export type HeldSession = { tenantId: string; principalId: string; idleSince: number | undefined };

export type RoomDecision<S extends HeldSession> =
  | { kind: "room" }
  | { kind: "evict"; session: S; cap: SessionCap }
  | { kind: "refuse"; cap: SessionCap; limit: number };

export function decideRoom<S extends HeldSession>(
  held: Iterable<S>,
  opener: { tenantId: string; principalId: string },
  caps: SessionCaps,
): RoomDecision<S> {
  const all = [...held];
  const workspace = all.filter((session) => session.tenantId === opener.tenantId);
  const own = workspace.filter((session) => session.principalId === opener.principalId);
  // In this order: the narrowest cap that is full names whose session goes.
  const full: Array<[SessionCap, S[], number]> = [
    ["principal", own, caps.perPrincipal],
    ["workspace", workspace, caps.perWorkspace],
    ["process", workspace, caps.perProcess],
  ];
  const counts: Record<SessionCap, number> = {
    principal: own.length,
    workspace: workspace.length,
    process: all.length,
  };
  for (const [cap, candidates, limit] of full) {
    if (counts[cap] < limit) continue;
    const oldest = oldestIdle(candidates);
    return oldest ? { kind: "evict", session: oldest, cap } : { kind: "refuse", cap, limit };
  }
  return { kind: "room" };
}

function oldestIdle<S extends HeldSession>(sessions: S[]): S | undefined {
  let oldest: S | undefined;
  for (const session of sessions) {
    if (session.idleSince === undefined) continue;
    if (!oldest || session.idleSince < (oldest.idleSince as number)) oldest = session;
  }
  return oldest;
}

const capVariables: Record<SessionCap, string> = {
  principal: "SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL",
  workspace: "SWITCHBOARD_MCP_MAX_SESSIONS_PER_WORKSPACE",
  process: "SWITCHBOARD_MCP_MAX_SESSIONS",
};

/** The 429's message: which cap, where it is set, and what the client can do. */
export function describeRefusal(cap: SessionCap, limit: number): string {
  const holds =
    cap === "principal"
      ? `at most ${limit} gateway sessions per principal`
      : cap === "workspace"
        ? `at most ${limit} gateway sessions per workspace`
        : `at most ${limit} gateway sessions in all, and none of this workspace's is idle`;
  return (
    `Too many sessions: this Switchboard process keeps ${holds} (${capVariables[cap]}), and every ` +
    "one that could make room is busy. End a session (DELETE), wait for one to finish, or send " +
    "requests without a session."
  );
}

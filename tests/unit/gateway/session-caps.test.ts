import { describe, expect, it } from "vitest";
import { decideRoom, describeRefusal, type HeldSession } from "@/lib/gateway/sessions/session-caps";

type Held = HeldSession & { name: string };

/** `name` reads as `<workspace><principal>-<n>`: a1-1 is principal 1 of workspace a, its first session. */
const held = (name: string, idleSince: number | undefined): Held => ({
  name,
  tenantId: name[0] as string,
  principalId: name.slice(0, 2),
  idleSince,
});
const BUSY = undefined;
const caps = { perProcess: 6, perWorkspace: 4, perPrincipal: 2 };
const opener = { tenantId: "b", principalId: "b1" };

describe("which session makes room for a new one (gateway session caps)", () => {
  it.each([
    { case: "under every cap", sessions: [held("a1-1", 1), held("b1-1", 2)], expected: "room" },
    {
      case: "principal full: its own oldest idle goes, even when another workspace's is older",
      sessions: [held("a1-1", 1), held("b1-1", 5), held("b1-2", 3)],
      expected: "evict b1-2 (principal)",
    },
    {
      case: "principal full and every one of its sessions busy: refused, although others are idle",
      sessions: [held("a1-1", 1), held("b2-1", 2), held("b1-1", BUSY), held("b1-2", BUSY)],
      expected: "refuse principal 2",
    },
    {
      case: "workspace full: its oldest idle goes, whichever of its principals holds it",
      sessions: [held("a1-1", 1), held("b2-1", 4), held("b2-2", 2), held("b3-1", 3), held("b1-1", 9)],
      expected: "evict b2-2 (workspace)",
    },
    {
      case: "workspace full and all busy: refused, never another workspace's",
      sessions: [
        held("a1-1", 1),
        held("b2-1", BUSY),
        held("b2-2", BUSY),
        held("b3-1", BUSY),
        held("b1-1", BUSY),
      ],
      expected: "refuse workspace 4",
    },
    {
      case: "process full: the opener's workspace makes room, not the workspace holding the oldest",
      sessions: [
        held("a1-1", 1),
        held("a2-1", 2),
        held("a3-1", 3),
        held("a4-1", 4),
        held("b2-1", 8),
        held("b3-1", 7),
      ],
      expected: "evict b3-1 (process)",
    },
    {
      case: "process full and the opener's workspace holds nothing idle: refused",
      sessions: [
        held("a1-1", 1),
        held("a2-1", 2),
        held("a3-1", 3),
        held("a4-1", 4),
        held("c1-1", 5),
        held("b2-1", BUSY),
      ],
      expected: "refuse process 6",
    },
    {
      case: "process full and the opener's workspace holds nothing at all: refused",
      sessions: [
        held("a1-1", 1),
        held("a2-1", 2),
        held("a3-1", 3),
        held("a4-1", 4),
        held("c1-1", 5),
        held("c2-1", 6),
      ],
      expected: "refuse process 6",
    },
  ])("$case", ({ sessions, expected }) => {
    const decision = decideRoom(sessions, opener, caps);
    const summary =
      decision.kind === "room"
        ? "room"
        : decision.kind === "evict"
          ? `evict ${decision.session.name} (${decision.cap})`
          : `refuse ${decision.cap} ${decision.limit}`;
    expect(summary).toBe(expected);
  });

  it("keeps every workspace's sessions through another workspace's flood", () => {
    // Workspace a holds one idle session; b opens a hundred, one after another, each becoming idle.
    const open: Held[] = [held("a1-1", 0)];
    for (let i = 1; i <= 100; i++) {
      const opener = { tenantId: "b", principalId: i % 2 ? "b1" : "b2" };
      const decision = decideRoom(open, opener, caps);
      if (decision.kind === "refuse") throw new Error(`refused at ${i}`);
      if (decision.kind === "evict") open.splice(open.indexOf(decision.session), 1);
      open.push({ ...opener, name: `${opener.principalId}-${i}`, idleSince: i });
    }
    expect(open.filter((s) => s.tenantId === "a").map((s) => s.name)).toEqual(["a1-1"]);
    expect(open.filter((s) => s.tenantId === "b")).toHaveLength(caps.perWorkspace);
    expect(open.filter((s) => s.principalId === "b1").length).toBeLessThanOrEqual(caps.perPrincipal);
  });

  it("names the cap and the variable that sets it", () => {
    expect(describeRefusal("principal", 100)).toMatch(
      /at most 100 gateway sessions per principal \(SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL\)/,
    );
    expect(describeRefusal("workspace", 500)).toMatch(
      /per workspace \(SWITCHBOARD_MCP_MAX_SESSIONS_PER_WORKSPACE\)/,
    );
    expect(describeRefusal("process", 1000)).toMatch(/in all.*\(SWITCHBOARD_MCP_MAX_SESSIONS\)/);
  });
});

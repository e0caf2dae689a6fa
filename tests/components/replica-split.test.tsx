import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FailureCallout } from "@/components/servers/detail/failure-callout";
import { ReplicasTable } from "@/components/servers/detail/replicas-table";
import { ReplicaSplitBadge } from "@/components/servers/replica-summary";
import type { ServerDiagnosticsDto } from "@/components/servers/server-queries";
import type { ServerReplicaDto } from "@/lib/servers/types";

/*
 * Replicas side by side, as an operator reads them: "Ready on 2 of 3" beside the state when live
 * replicas disagree (and nothing when there is one, or they agree), and on the server's page each
 * replica's state, its last error and a replica gone silent marked as such.
 */

afterEach(cleanup);

const replica = (id: string, state: string, over: Partial<ServerReplicaDto> = {}): ServerReplicaDto => ({
  id,
  state,
  lastError: null,
  updatedAt: "2026-01-01T00:00:00.000Z",
  live: true,
  ...over,
});

describe("the 'ready on N of M' badge", () => {
  it("says on how many live replicas a server is ready when they disagree", () => {
    const replicas = [
      replica("a:3000", "ready"),
      replica("b:3000", "ready"),
      replica("c:3000", "crash-loop"),
    ];
    render(<ReplicaSplitBadge replicas={replicas} summary={{ ready: 2, of: 3 }} testId="split" />);
    expect(screen.getByTestId("split").textContent).toBe("Ready on 2 of 3");
    expect(screen.getByTitle(/Not ready on c:3000: crash-loop/)).toBeTruthy();
  });

  it.each([
    ["one replica", [replica("a:3000", "crash-loop")], { ready: 0, of: 1 }],
    ["replicas that agree", [replica("a:3000", "ready"), replica("b:3000", "ready")], { ready: 2, of: 2 }],
    [
      "live replicas that agree beside one gone silent",
      [
        replica("a:3000", "ready"),
        replica("b:3000", "ready"),
        replica("c:3000", "crash-loop", { live: false }),
      ],
      { ready: 2, of: 2 },
    ],
    ["no replica with a heartbeat", [], { ready: 0, of: 0 }],
  ])("shows nothing for %s", (_, replicas, summary) => {
    const { container } = render(<ReplicaSplitBadge replicas={replicas} summary={summary} />);
    expect(container.textContent).toBe("");
  });
});

describe("the server page's replicas table", () => {
  it("lists each replica's state, last error and time, and marks one gone silent", () => {
    render(
      <ReplicasTable
        replicas={[
          replica("a:3000", "ready"),
          replica("b:3000", "crash-loop", { lastError: "spawn node ENOENT" }),
          replica("c:3000", "ready", { live: false }),
          replica("d:3000", "unknown", { updatedAt: null }),
        ]}
        summary={{ ready: 1, of: 3 }}
        answeredBy="a:3000"
      />,
    );
    const row = (id: string) => within(screen.getByTestId(`replica-row-${id}`));
    expect(row("a:3000").getByText("Ready")).toBeTruthy();
    expect(row("a:3000").getByText("(this page)")).toBeTruthy();
    expect(row("b:3000").getByText("Crash loop")).toBeTruthy();
    expect(row("b:3000").getByText("spawn node ENOENT")).toBeTruthy();
    expect(row("c:3000").getByText("gone silent")).toBeTruthy();
    expect(row("a:3000").queryByText("gone silent")).toBeNull();
    expect(row("d:3000").getByText("Not checked")).toBeTruthy();
    expect(screen.getByText("ready on 1 of 3 live")).toBeTruthy();
  });

  it("is not shown for a single replica", () => {
    const { container } = render(
      <ReplicasTable
        replicas={[replica("a:3000", "ready")]}
        summary={{ ready: 1, of: 1 }}
        answeredBy="a:3000"
      />,
    );
    expect(container.textContent).toBe("");
  });
});

describe("the failure callout with replicas", () => {
  const diagnostics = (replica: string, lastError: string | null) =>
    ({
      replica,
      lastError: lastError ? { message: lastError, at: "2026-01-01T00:00:00.000Z" } : null,
      live: { recentFailures: 0 },
      exit: null,
    }) as unknown as ServerDiagnosticsDto;
  const replicas = [
    replica("a:3000", "ready"),
    replica("b:3000", "crash-loop", { lastError: "EADDRINUSE 127.0.0.1:7411" }),
  ];

  it("names the replica that fails and shows its error, not the answering replica's", () => {
    render(
      <FailureCallout
        status="crash-loop"
        serverError="EADDRINUSE 127.0.0.1:7411"
        diagnostics={diagnostics("a:3000", "an old error of a")}
        replicas={replicas}
        onShowDiagnostics={() => {}}
      />,
    );
    expect(screen.getByTestId("failing-replicas").textContent).toBe("on b:3000");
    expect(screen.getByText("EADDRINUSE 127.0.0.1:7411")).toBeTruthy();
    expect(screen.queryByText("an old error of a")).toBeNull();
    expect(screen.queryByRole("button", { name: "Open diagnostics and stderr" })).toBeNull();
  });

  it("is as before when the failing replica is the one that answered", () => {
    render(
      <FailureCallout
        status="crash-loop"
        serverError={null}
        diagnostics={diagnostics("b:3000", "spawn failed")}
        replicas={replicas}
        onShowDiagnostics={() => {}}
      />,
    );
    expect(screen.queryByTestId("failing-replicas")).toBeNull();
    expect(screen.getByText("spawn failed")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Open diagnostics and stderr" })).toBeTruthy();
  });
});

import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BusiestAgentsCard } from "@/components/overview/busiest-agents-card";
import { ServerRatesCard } from "@/components/overview/server-rates-card";
import type { ServerCallStats } from "@/lib/calls/types";

/*
 * The Overview's call statistics cards as an operator reads them: an empty hour says so, a server
 * row reads as numbers (not raw fractions), a server that never ran shows "—" for its latency, and
 * a deleted server or principal still has a readable row.
 */

afterEach(cleanup);

const row = (over: Partial<ServerCallStats>): ServerCallStats => ({
  serverId: "s1",
  serverName: "files",
  calls: 30,
  errors: 3,
  callsPerMinute: 0.5,
  errorRate: 0.1,
  p50Ms: 12.4,
  p95Ms: 1520,
  ...over,
});

describe("Calls by server", () => {
  it("says so when nothing was called in the last hour", () => {
    render(<ServerRatesCard servers={[]} />);
    expect(screen.getByText("No calls in the last hour.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows rates, error shares and latencies as people read them", () => {
    render(
      <ServerRatesCard
        servers={[
          row({}),
          row({
            serverId: "s2",
            serverName: "held",
            calls: 2,
            errors: 0,
            errorRate: 0,
            callsPerMinute: 2 / 60,
            p50Ms: null,
            p95Ms: null,
          }),
          row({
            serverId: "s3",
            serverName: null,
            calls: 1,
            errors: 1,
            errorRate: 1,
            callsPerMinute: 1 / 60,
          }),
        ]}
      />,
    );
    const cells = (name: string) =>
      within(screen.getByTestId(`server-rate-${name}`))
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
    expect(cells("files")).toEqual(["files", "30", "0.5", "10%", "12 ms", "1.52 s"]);
    expect(cells("held")).toEqual(["held", "2", "< 0.1", "0%", "—", "—"]);
    expect(cells("deleted")).toEqual(["deleted server", "1", "< 0.1", "100%", "12 ms", "1.52 s"]);
    expect(screen.getByRole("link", { name: "files" }).getAttribute("href")).toBe("/servers/files");
  });
});

describe("Busiest agents", () => {
  it("says so when no agent called, and lists agents with their calls and errors", () => {
    const { unmount } = render(<BusiestAgentsCard agents={[]} />);
    expect(screen.getByText("No agent has made a call in the last hour.")).toBeTruthy();
    unmount();

    render(
      <BusiestAgentsCard
        agents={[
          { principalId: "p1", principalName: "claude-code", calls: 12, errors: 1 },
          { principalId: "p2", principalName: null, calls: 1, errors: 0 },
        ]}
      />,
    );
    const first = screen.getByTestId("busy-agent-claude-code");
    expect(first.textContent).toContain("12 calls");
    expect(first.textContent).toContain("1 error");
    expect(within(first).getByRole("link").getAttribute("href")).toBe("/calls?requester=p1");
    const second = screen.getByTestId("busy-agent-p2");
    expect(second.textContent).toContain("deleted principal");
    expect(second.textContent).toContain("1 call");
    expect(second.textContent).not.toContain("error");
  });
});

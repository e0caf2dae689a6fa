import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMetrics } from "@/lib/observability/metrics";

/*
 * docs/grafana/switchboard.json is an example an operator imports as it is: it must parse, and every
 * query must name a metric /metrics exports, or its panel is silently empty. Same for the PromQL in
 * docs/observability.md. The names are read from the registry /metrics serves
 * (lib/observability/metrics.ts), so a renamed or dropped metric fails here.
 */

// What /metrics really serves: the registry the endpoint reads (a histogram through its series).
const served = await createMetrics().registry.getMetricsAsJSON();
const known = new Set(
  served.flatMap(({ name, type }) =>
    String(type) === "histogram" ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
  ),
);

const root = path.resolve(import.meta.dirname, "../..");
const dashboardText = readFileSync(path.join(root, "docs/grafana/switchboard.json"), "utf8");

type Panel = { title: string; type: string; targets?: Array<{ expr: string }> };
const metricNamesIn = (expr: string): string[] =>
  expr.match(/\b(?:switchboard|process|nodejs)_[a-z_]+\b/g) ?? [];

describe("the example Grafana dashboard", () => {
  const dashboard = JSON.parse(dashboardText) as { title: string; uid: string; panels: Panel[] };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

  it("parses, and every panel queries something", () => {
    expect(dashboard.title).toBe("Switchboard");
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(7);
    for (const panel of dashboard.panels) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
  });

  it("names only metrics Switchboard exports (a histogram through its _bucket series)", () => {
    const names = exprs.flatMap(metricNamesIn);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !known.has(name))).toEqual([]);
    // Every query reads at least one Switchboard or process metric (no stray literals or typos).
    for (const expr of exprs) expect(metricNamesIn(expr).length, expr).toBeGreaterThan(0);
  });

  it("has the panels operators asked for", () => {
    const uses = (name: string) => exprs.some((expr) => metricNamesIn(expr).includes(name));
    expect(uses("switchboard_calls_total")).toBe(true); // call rate and error rate by server
    expect(exprs.some((e) => e.includes('outcome=~"failed|tool_error"'))).toBe(true);
    expect(
      exprs.some((e) => /histogram_quantile\(0\.95,.*switchboard_call_duration_seconds_bucket/.test(e)),
    ).toBe(true);
    for (const name of [
      "switchboard_approvals_pending",
      "switchboard_server_up",
      "switchboard_sse_subscribers",
      "process_resident_memory_bytes",
    ])
      expect(uses(name), name).toBe(true);
  });
});

describe("docs/observability.md", () => {
  it("names only metrics Switchboard exports", () => {
    const page = readFileSync(path.join(root, "docs/observability.md"), "utf8");
    const names = metricNamesIn(page);
    expect(names.length).toBeGreaterThan(0);
    const histograms = new Set(served.filter((m) => String(m.type) === "histogram").map((m) => m.name));
    expect(names.filter((name) => !known.has(name) && !histograms.has(name))).toEqual([]);
  });
});

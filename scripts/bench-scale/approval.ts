// bench:scale, approval part: a gateway call that needs an approval, held on process A (the agent
// waits for its answer), approved through process B's REST API; how long from the decision until
// the downstream server has the call (the host notes when each marked echo arrives).
import { stats } from "../bench-common";
import type { PostgresPair } from "./pair";
import { ms, Section } from "./report";
import { echoCall, now, progress, rest, sleep } from "./world";

type Pending = { approvals: { call: { id: string; arguments?: Record<string, unknown> } }[] };

export async function approvalPart(pair: PostgresPair, options: { approvals: number }): Promise<Section[]> {
  const { a, b, key, host } = pair;
  const section = new Section("Approval across processes (PostgreSQL): held on A, approved through B");
  const fromSent: number[] = [];
  const fromAnswered: number[] = [];
  progress(`approval: ${options.approvals} approvals`);
  for (let i = 0; i < options.approvals; i++) {
    const text = `stamp-${i}-${Math.random().toString(36).slice(2)}`;
    const call = echoCall(a, key, "gate__echo", text);
    let callId: string | undefined;
    const deadline = Date.now() + 30_000;
    while (!callId) {
      const { approvals } = await rest<Pending>(b, "GET", "/api/v1/approvals?status=pending");
      callId = approvals.find((item) => item.call.arguments?.text === text)?.call.id;
      if (!callId) {
        if (Date.now() > deadline) throw new Error(`the call ${text} never waited for an approval on B`);
        await sleep(10);
      }
    }
    const sent = now();
    await rest(b, "POST", `/api/v1/approvals/${callId}/approve`, {});
    const answered = now();
    const result = await call;
    const arrived = await host.receivedAt(text);
    if (!result.ok || arrived === undefined) {
      section.mismatches++;
      continue;
    }
    fromSent.push(arrived - sent);
    fromAnswered.push(arrived - answered);
  }
  const sentStats = stats(fromSent);
  const answeredStats = stats(fromAnswered);
  section.row(
    `approve sent to B → downstream has the call: p50 · p99 (${fromSent.length} calls)`,
    `${ms(sentStats.p50)} · ${ms(sentStats.p99)}`,
    "p50 < 25 ms",
    sentStats.p50 < 25,
  );
  section.row(
    "B's approve answered → downstream has the call: p50 · p99",
    `${ms(answeredStats.p50)} · ${ms(answeredStats.p99)}`,
  );
  section.note(
    "One call at a time: a stateless POST /mcp `tools/call` of `gate__echo` (approval rule `always`) on A, held open; " +
      "its pending approval found through B's GET /api/v1/approvals, approved with POST /api/v1/approvals/{call id}/approve " +
      "on B; the MCP host notes when the echo arrives (same machine, same clock). A negative second figure: the call " +
      "reached the server before B's answer reached the bench.",
  );
  return [section];
}

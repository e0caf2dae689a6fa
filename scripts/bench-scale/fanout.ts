// bench:scale, live fan-out part: SSE subscribers on both processes of a PostgreSQL pair, events
// written through both at a set rate (gateway calls of `fan__echo`, classified read: each call is a
// few events), delivery latency event time → arrival, every subscriber's ids checked against the
// table; then the same with one subscriber that reads one chunk a second.
import type { SwitchboardProcess } from "../../tests/fixtures/cluster";
import { idleShare, machineCpu, processTreeCpuMs, stats } from "../bench-common";
import type { PostgresPair } from "./pair";
import { ms, Section } from "./report";
import { compareIds, Subscriber } from "./sse-subscriber";
import { echoCall, inParallel, now, progress, rest, sleep } from "./world";

export type FanoutOptions = { subscribers: number; eventRate: number; fanoutSeconds: number };

const MAX_IN_FLIGHT = 64;
const QUIET_RATE = 10;

type EventPage = { events: { id: number }[]; hasMore: boolean };

const newestId = async (proc: SwitchboardProcess) =>
  (await rest<EventPage>(proc, "GET", "/api/v1/events?limit=1")).events[0]?.id ?? 0;

/** The workspace's event ids in (after, upTo], from the table. */
async function idsBetween(proc: SwitchboardProcess, after: number, upTo: number): Promise<number[]> {
  const ids: number[] = [];
  for (let cursor = after; ; ) {
    const page = await rest<EventPage>(proc, "GET", `/api/v1/events?after=${cursor}&limit=200`);
    for (const { id } of page.events) if (id <= upTo) ids.push(id);
    const last = page.events.at(-1)?.id;
    if (!page.hasMore || last === undefined || last >= upTo) return ids;
    cursor = last;
  }
}

export async function fanoutPart(pair: PostgresPair, options: FanoutOptions): Promise<Section[]> {
  const { a, b, apiKey, key } = pair;
  const section = new Section(
    `Live fan-out: ${options.subscribers} SSE subscribers on two processes, PostgreSQL, ${options.eventRate} events/s asked`,
  );
  const subscribers: Subscriber[] = [];
  try {
    // ── what one call writes ──
    const before = await newestId(a);
    for (let i = 0; i < 20; i++) await echoCall(i % 2 ? b : a, key, "fan__echo", `calibrate-${i}`);
    await sleep(1_000); // endings are written just after the answer
    const eventsPerCall = Math.max(1, ((await newestId(a)) - before) / 20);

    progress(`fan-out: opening ${options.subscribers} subscribers`);
    const procs = [a, b];
    await inParallel(
      Array.from({ length: options.subscribers }, (_, i) => i),
      20,
      async (i) => {
        const subscriber = new Subscriber((procs[i % 2] as SwitchboardProcess).url, apiKey);
        await subscriber.open();
        subscribers.push(subscriber);
      },
    );
    const regular = [...subscribers];

    const phase = async (label: string, rate = options.eventRate) => {
      progress(`fan-out: ${label}`);
      const startId = await newestId(a);
      const cpuBefore = [processTreeCpuMs(a.pid), processTreeCpuMs(b.pid)];
      const benchCpuBefore = process.cpuUsage();
      const machineBefore = machineCpu();
      const load = await writeEvents(pair, rate / eventsPerCall, options.fanoutSeconds * 1000);
      const benchCpu = process.cpuUsage(benchCpuBefore);
      const idle = idleShare(machineBefore, machineCpu());
      const cpuAfter = [processTreeCpuMs(a.pid), processTreeCpuMs(b.pid)];
      section.mismatches += load.mismatches;
      // A few of them, as they came (each may name its own call).
      for (const failure of [...new Set(load.failures)].slice(0, 5)) {
        const times = load.failures.filter((f) => f === failure).length;
        section.note(`${label}: ${times} call(s) answered otherwise: \`${failure.replace(/[`|\n]/g, " ")}\``);
      }
      // Quiet: no more endings to come, every write visible.
      let endId = await newestId(a);
      for (;;) {
        await sleep(1_000);
        const newer = await newestId(a);
        if (newer === endId) break;
        endId = newer;
      }
      for (const subscriber of subscribers) subscriber.hurry();
      const deadline = Date.now() + 30_000;
      while (subscribers.some((sub) => sub.lastId < endId) && Date.now() < deadline) await sleep(200);
      const expected = await idsBetween(a, startId, endId);
      const seconds = load.ms / 1000;
      const cpu = (i: number) => {
        const [was, is] = [cpuBefore[i], cpuAfter[i]];
        return was === undefined || is === undefined ? "—" : `${(((is - was) / load.ms) * 100).toFixed(0)}%`;
      };
      section.row(
        `${label}: events written (calls × ${eventsPerCall.toFixed(1)}) · per second`,
        `${expected.length} · ${(expected.length / seconds).toFixed(0)}/s`,
        `${rate}/s`,
        expected.length / seconds >= rate * 0.95,
      );
      section.row(
        `${label}: CPU of A · B · the bench (subscribers and callers), % of one core · machine idle`,
        `${cpu(0)} · ${cpu(1)} · ${(((benchCpu.user + benchCpu.system) / 1000 / load.ms) * 100).toFixed(0)}% · ${
          idle === undefined ? "—" : `${(idle * 100).toFixed(0)}%`
        }`,
      );
      const calls = stats(load.latencies);
      section.row(
        `${label}: the calls themselves p50 · p99 (${load.calls})`,
        `${ms(calls.p50)} · ${ms(calls.p99)}`,
      );
      const verdict = (list: Subscriber[]) => {
        let lost = 0;
        let duplicated = 0;
        let outOfOrder = 0;
        const latencies: number[] = [];
        for (const sub of list) {
          const result = compareIds(sub.ids, expected);
          lost += result.lost;
          duplicated += result.duplicated;
          outOfOrder += result.outOfOrder;
          const first = expected[0] ?? 0;
          sub.ids.forEach((id, i) => {
            if (id >= first && id <= endId) latencies.push(sub.latencies[i] as number);
          });
        }
        return { lost, duplicated, outOfOrder, latencies: stats(latencies) };
      };
      const others = verdict(regular);
      section.mismatches += others.lost + others.duplicated + others.outOfOrder;
      section.row(
        `${label}: delivery latency p50 · p99 (${regular.length} subscribers)`,
        `${ms(others.latencies.p50)} · ${ms(others.latencies.p99)}`,
        "p99 < 100 ms",
        others.latencies.p99 < 100,
      );
      section.row(
        `${label}: lost · duplicated · out of order, over all ${regular.length} subscribers`,
        `${others.lost} · ${others.duplicated} · ${others.outOfOrder}`,
        "0 · 0 · 0",
        others.lost + others.duplicated + others.outOfOrder === 0,
      );
      return { others, startId, endId };
    };

    // A trickle first: what one event waits when the database is quiet between events.
    await phase(`at ${QUIET_RATE} events/s`, QUIET_RATE);
    const without = await phase("without a slow reader");
    const slow = new Subscriber(a.url, apiKey, true);
    await slow.open();
    subscribers.push(slow);
    const withSlow = await phase("with one slow reader on A");
    section.row(
      "others' p99 without · with the slow reader",
      `${ms(without.others.latencies.p99)} · ${ms(withSlow.others.latencies.p99)}`,
      "not delayed (≤ 1.2×)",
      withSlow.others.latencies.p99 <= without.others.latencies.p99 * 1.2,
    );
    const caughtUp = compareIds(slow.ids, await idsBetween(a, withSlow.startId, withSlow.endId));
    section.mismatches += caughtUp.lost + caughtUp.duplicated + caughtUp.outOfOrder;
    section.row(
      "the slow reader, once it reads again: lost · duplicated · out of order · gap markers",
      `${caughtUp.lost} · ${caughtUp.duplicated} · ${caughtUp.outOfOrder} · ${slow.gaps}`,
      "0 · 0 · 0",
      caughtUp.lost + caughtUp.duplicated + caughtUp.outOfOrder === 0,
    );
    section.note(
      `Events: gateway \`tools/call\` of \`fan__echo\` (classified read, runs at once), stateless POST /mcp, alternately ` +
        `through A and B, paced to the asked rate (at most ${MAX_IN_FLIGHT} in flight); each call writes ` +
        `${eventsPerCall.toFixed(1)} events (call.requested, call.started, call.succeeded). Subscribers alternate between ` +
        "A and B; latency = arrival at the subscriber − the event's createdAt (the database's clock, same machine, ms). " +
        "Lost and duplicated: each subscriber's ids against the table's ids of the window.",
    );
  } finally {
    for (const subscriber of subscribers) subscriber.close();
  }
  return [section];
}

/** Calls at `callsPerSecond` for `durationMs`, alternating A and B; returns how long it ran. */
async function writeEvents(
  pair: PostgresPair,
  callsPerSecond: number,
  durationMs: number,
): Promise<{ ms: number; calls: number; mismatches: number; latencies: number[]; failures: string[] }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  let issued = 0;
  let inFlight = 0;
  let mismatches = 0;
  const running = new Set<Promise<void>>();
  const started = now();
  while (now() - started < durationMs) {
    const due = Math.floor(((now() - started) / 1000) * callsPerSecond) - issued;
    for (let i = 0; i < due && inFlight < MAX_IN_FLIGHT; i++) {
      const proc = issued % 2 ? pair.b : pair.a;
      const text = `fan-${issued}-${Math.random().toString(36).slice(2)}`;
      issued++;
      inFlight++;
      const call = echoCall(proc, pair.key, "fan__echo", text)
        .then((result) => {
          latencies.push(result.ms);
          if (!result.ok) {
            mismatches++;
            failures.push(result.instead ?? "");
          }
        })
        .catch((error: unknown) => {
          mismatches++;
          failures.push(`no answer: ${(error as Error).message}`);
        })
        .finally(() => {
          inFlight--;
          running.delete(call);
        });
      running.add(call);
    }
    await sleep(5);
  }
  const ran = now() - started;
  await Promise.all(running);
  return { ms: ran, calls: issued, mismatches, latencies, failures };
}

// What the bench scripts share: a free port, waiting for something to come up, percentiles, and
// what /proc says of a process (CPU, resident memory).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Polls `probe` until it answers; `exitReason` (of the peer being waited for) says why it never
 * will — an exited process — so the wait stops at once instead of running into the timeout.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  exitReason: () => string | undefined = () => undefined,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {}
    const ended = exitReason();
    if (ended) throw new Error(ended);
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Nearest rank: the smallest sample with at least p % of samples at or below it. */
export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

type ProcStat = { parent: number; ticks: number; rssPages: number };

/** Every process's parent, CPU ticks and resident pages; undefined without /proc. */
function readProcStats(): Map<number, ProcStat> | undefined {
  const stats = new Map<number, ProcStat>();
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // Fields after the command (which may hold spaces): state, ppid, …, utime (14th), stime
        // (15th), …, rss (24th, in pages).
        const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
        stats.set(Number(entry), {
          parent: Number(fields[1]),
          ticks: Number(fields[11]) + Number(fields[12]),
          rssPages: Number(fields[21]),
        });
      } catch {} // exited meanwhile
    }
  } catch {
    return undefined;
  }
  return stats;
}

/** `pid` and its descendants, as read from /proc; undefined without /proc or that process. */
function processTree(pid: number | undefined): ProcStat[] | undefined {
  if (pid === undefined) return undefined;
  const stats = readProcStats();
  if (!stats?.has(pid)) return undefined;
  const tree = [pid];
  for (const member of tree) {
    for (const [child, { parent }] of stats) if (parent === member) tree.push(child);
  }
  return tree.flatMap((member) => stats.get(member) ?? []);
}

/** CPU time (user + system) of `pid` and its descendants, in ms; undefined without /proc. */
export function processTreeCpuMs(pid: number | undefined): number | undefined {
  const TICK_MS = 10; // USER_HZ is 100 on Linux
  const tree = processTree(pid);
  return tree && tree.reduce((sum, p) => sum + p.ticks, 0) * TICK_MS;
}

const PAGE_KB = 4; // the page size of x86-64 and arm64 Linux as configured here

/** Resident memory of `pid` alone and with its descendants, in MiB; undefined without /proc. */
export function residentMiB(pid: number | undefined): { own: number; tree: number } | undefined {
  const tree = processTree(pid);
  if (!tree?.[0]) return undefined;
  const mib = (pages: number) => (pages * PAGE_KB) / 1024;
  return { own: mib(tree[0].rssPages), tree: mib(tree.reduce((sum, p) => sum + p.rssPages, 0)) };
}

/** The whole machine's CPU counters (/proc/stat): pass two to `idleShare`. */
export function machineCpu(): { idle: number; total: number } | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/).slice(1).map(Number) ?? [];
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU left idle between two readings, 0 to 1. */
export function idleShare(
  before: ReturnType<typeof machineCpu>,
  after: ReturnType<typeof machineCpu>,
): number | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  return (after.idle - before.idle) / (after.total - before.total);
}

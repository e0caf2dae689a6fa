// Our own: no maintained package spawns into a new process group and kills the whole group on our exit
// (including SIGKILL of stragglers), which is what stopping `npx`-started servers needs.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Stdio servers run in their own process group so that everything they start — `npx` starts
 * npm, which starts a shell, which starts node — can be stopped together. Killing only the
 * direct child would leave the grandchildren running, holding the pipes, for ever.
 */

const liveGroups = new Set<number>();
let hooksInstalled = false;

/** Spawns without a shell, as the leader of a new process group (setsid). */
export function spawnInGroup(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; identity?: { uid: number; gid: number } },
): ChildProcess {
  installExitHooks();
  const child = spawn(command, args, {
    cwd: options.cwd,
    // libuv drops the supplementary groups too when it switches the user.
    uid: options.identity?.uid,
    gid: options.identity?.gid,
    // The complete environment, on purpose (see transports.ts); the cast only drops Next's NODE_ENV typing.
    env: options.env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
    shell: false,
    detached: true,
    windowsHide: true,
  });
  if (child.pid !== undefined) liveGroups.add(child.pid);
  return child;
}

/**
 * Stops a whole group: SIGTERM, then SIGKILL for whatever is still running after `graceMs`.
 * `escaped` are descendants that left the group (see listEscapedDescendants), stopped alike.
 * Resolves once nothing is left running (or after the SIGKILL, which cannot be refused).
 */
export async function terminateGroup(
  pgid: number,
  options: { graceMs: number; escaped?: number[] },
): Promise<void> {
  const escaped = options.escaped ?? [];
  const signalAll = (signal: NodeJS.Signals) => {
    const any = signalGroup(pgid, signal);
    return escaped.map((pid) => signalPid(pid, signal)).some(Boolean) || any;
  };
  const gone = () => !isGroupRunning(pgid) && escaped.every((pid) => !isPidRunning(pid));
  if (signalAll("SIGTERM") && !(await waitUntil(gone, options.graceMs))) {
    signalAll("SIGKILL");
    await waitUntil(gone, 1000);
  }
  liveGroups.delete(pgid);
}

/**
 * Descendants of a group leader that called setsid() and so left its group. They can only be
 * found by ancestry, and only while the leader lives to link them to us: call this first.
 */
export function listEscapedDescendants(pgid: number): number[] {
  return listDescendants(pgid).filter((pid) => readStat(String(pid))?.pgid !== pgid);
}

/** Whether any process of the group is still running (zombies don't count: they are already dead). */
export function isGroupRunning(pgid: number): boolean {
  const members = listGroupMembers(pgid);
  if (members) return members.length > 0;
  return signalPid(-pgid, 0);
}

/** Live member pids of a group via /proc, or undefined where there is no /proc (macOS). */
export function listGroupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat && stat.pgid === pgid && stat.state !== "Z" && stat.state !== "X") members.push(Number(entry));
  }
  return members;
}

/** All running descendants of `pid` (children, their children, …) via /proc; [] without /proc. */
export function listDescendants(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const stat = readStat(entry);
    if (!stat || stat.state === "Z") continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

function readStat(pid: string): { state: string; ppid: number; pgid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp …" — comm may contain spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined; // exited while we were looking
  }
}

function isPidRunning(pid: number): boolean {
  const stat = readStat(String(pid));
  if (stat) return stat.state !== "Z" && stat.state !== "X";
  return signalPid(pid, 0);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  return signalPid(-pgid, signal);
}

function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25).unref());
  }
  return true;
}

/**
 * When this process ends, its groups end too. `exit` handlers must be synchronous, so it is a
 * SIGKILL without grace. On a signal nobody else handles, the default would end the process
 * without an `exit` event: kill the groups first, then re-raise the signal. A signal someone else
 * handles (the server's graceful shutdown, lib/runtime/shutdown.ts) is theirs: they stop the
 * groups in order once calls are done, and the `exit` hook still kills whatever is left.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", killAllGroupsNow);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killAllGroupsNow();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

export function killAllGroupsNow(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
}

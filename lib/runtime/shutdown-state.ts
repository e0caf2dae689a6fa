import { AppError } from "@/lib/errors";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Whether this process is shutting down, and the call work it lets finish first — the one place
 * every part asks (the gateway and the call services refuse new calls, waits for a decision end,
 * readiness reports not ready). lib/runtime/shutdown.ts drives it on SIGTERM/SIGINT:
 *
 *   serving → draining (new calls refused; waits answered with the call's state; calls in flight
 *   go on) → interrupted (the grace period is over: calls still running are ended as failed)
 *
 * Works are counted, not listed: a call's request is one work from its first check to its
 * ending's write, and its run (which may start elsewhere: an approval, a waiter) is another.
 */
export type ShutdownPhase = "serving" | "draining" | "interrupted";

/** Said to every caller refused while shutting down (gateway, REST, dashboard). */
export const SHUTTING_DOWN_MESSAGE =
  "This Switchboard process is shutting down and takes no new calls. Send the request again: another Switchboard process (or this one, once restarted) takes it.";

/** Said to a caller refused because this process has not started its connection pool yet. */
export const STARTING_MESSAGE =
  "This Switchboard process is still starting and takes no calls yet. Send the request again: another Switchboard process, or this one in a moment, takes it.";

/** How soon a refused caller may retry: by then a load balancer has usually moved on. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 2;

export class ShutdownGate {
  private current: ShutdownPhase = "serving";
  private inFlight = 0;
  private running = 0;
  private readonly listeners = {
    draining: new Set<() => void>(),
    interrupted: new Set<() => void>(),
  };
  private readonly idleWaiters = new Set<() => void>();

  get phase(): ShutdownPhase {
    return this.current;
  }

  /** Works in flight: calls' requests and runs (one call may be both). */
  get workInFlight(): number {
    return this.inFlight;
  }

  /** Calls this process is running right now (for the log). */
  get callsRunning(): number {
    return this.running;
  }

  /**
   * Runs `listener` once the gate reaches `phase` — at once if it already has. Returns the
   * unsubscribe function (call it when the work ends, so nothing is kept for a finished call).
   */
  on(phase: Exclude<ShutdownPhase, "serving">, listener: () => void): () => void {
    if (this.reached(phase)) {
      listener();
      return () => {};
    }
    this.listeners[phase].add(listener);
    return () => this.listeners[phase].delete(listener);
  }

  /**
   * Counts `work` as in flight until it settles; shutdown waits for it (up to the grace period).
   * `run`: the work is a call's run (a request's work may include one, counted once more).
   */
  async track<T>(work: () => Promise<T>, kind: "request" | "run" = "request"): Promise<T> {
    this.inFlight++;
    if (kind === "run") this.running++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (kind === "run") this.running--;
      if (this.inFlight === 0) for (const wake of [...this.idleWaiters]) wake();
    }
  }

  /** Resolves true once no work is in flight, false if `timeoutMs` passes first. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(wake);
        resolve(idle);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.idleWaiters.add(wake);
    });
  }

  /** Stop taking calls; ongoing ones go on. */
  beginDraining(): void {
    this.advance("draining");
  }

  /** The grace period is over: calls still running are ended (as failed, saying why). */
  interrupt(): void {
    this.advance("draining");
    this.advance("interrupted");
  }

  private reached(phase: ShutdownPhase): boolean {
    const order: ShutdownPhase[] = ["serving", "draining", "interrupted"];
    return order.indexOf(this.current) >= order.indexOf(phase);
  }

  private advance(phase: Exclude<ShutdownPhase, "serving">): void {
    if (this.reached(phase)) return;
    this.current = phase;
    const listeners = [...this.listeners[phase]];
    this.listeners[phase].clear();
    for (const listener of listeners) listener();
  }
}

/** The process's gate, shared by every bundle of this module. */
export const shutdownGate: ShutdownGate = processSingleton("ShutdownGate", () => new ShutdownGate());

/** True from the first SIGTERM/SIGINT on: readiness reports not ready, new calls are refused. */
export function isShuttingDown(): boolean {
  return shutdownGate.phase !== "serving";
}

/** Throws the 503 every new call gets while this process shuts down. */
export function assertAcceptingCalls(): void {
  if (isShuttingDown()) {
    throw new AppError("upstream_unavailable", SHUTTING_DOWN_MESSAGE, {
      retryAfterSeconds: SHUTDOWN_RETRY_AFTER_SECONDS,
    });
  }
}

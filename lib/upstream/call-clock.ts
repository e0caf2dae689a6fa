import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * A tool call's own timeout (the server's callTimeoutMs), kept here rather than by the SDK so it
 * can be held: while an operator answers a question the server asked during the call
 * (lib/elicitations), the server is waiting for us, not hung, and a timeout would kill the call
 * under the person typing. Held, the clock keeps what was left and resumes with it; the hold is
 * itself bounded by the question's expiry, so a call can wait at most callTimeoutMs + that expiry.
 * The SDK's `timeout` option cannot pause (it resets only on progress), hence our own timer: it
 * aborts the request with the same McpError the SDK's timeout would, so a timeout reads the same.
 */
export class CallClock {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private runningSince = 0;
  private holds = 0;

  constructor(private readonly timeoutMs: number) {
    this.remainingMs = timeoutMs;
    this.run();
  }

  /** Aborted, with a RequestTimeout McpError, when the call has run for its timeout. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the clock; the returned function (idempotent) starts it again once no hold is left. */
  hold(): () => void {
    if (this.holds++ === 0) this.pause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && !this.controller.signal.aborted) this.run();
    };
  }

  /** The call ended: no timeout any more. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.runningSince = performance.now();
    this.timer = setTimeout(() => {
      this.controller.abort(
        new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: this.timeoutMs }),
      );
    }, this.remainingMs);
  }

  private pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs = Math.max(this.remainingMs - (performance.now() - this.runningSince), 0);
  }
}

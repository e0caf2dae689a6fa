import type { Progress } from "@modelcontextprotocol/sdk/types.js";

/**
 * One call's progress stream to the gateway client. Two sources share it: Switchboard's own
 * "waiting for approval" heartbeats and the downstream server's progress once the call runs.
 * MCP wants progress to increase, so downstream values are shifted past the heartbeats already
 * sent. Sending never throws: a client that went away must not fail the call.
 */
export type ProgressSend = (progress: Progress) => Promise<void>;

/** At most this long between notices while a call waits: clients drop requests silent for ~10 s+. */
export const HEARTBEAT_MS = 5_000;

export class ProgressRelay {
  private heartbeats = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly send: ProgressSend | undefined) {}

  get enabled(): boolean {
    return this.send !== undefined;
  }

  /** Sends `message` now and every HEARTBEAT_MS until stopHeartbeat/stop. */
  startHeartbeat(message: () => string): void {
    if (!this.send || this.stopped) return;
    this.stopHeartbeat();
    const beat = () => this.emit({ progress: ++this.heartbeats, message: message() });
    beat();
    this.timer = setInterval(beat, HEARTBEAT_MS);
  }

  stopHeartbeat(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The downstream server's progress, relayed in order on the caller's request stream. */
  readonly downstream = (progress: Progress): void => {
    const base = this.heartbeats;
    this.emit({
      ...progress,
      progress: base + progress.progress,
      ...(progress.total !== undefined ? { total: base + progress.total } : {}),
    });
  };

  stop(): void {
    this.stopped = true;
    this.stopHeartbeat();
  }

  private emit(progress: Progress): void {
    if (!this.send || this.stopped) return;
    this.send(progress).catch(() => {});
  }
}

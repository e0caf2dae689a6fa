// One reader of GET /api/v1/events/stream for bench:scale's fan-out: node:http (a fetch body stream
// costs several times more CPU, and two hundred of these share the bench's core with the load),
// each event's id and its delivery latency (arrival − the event's createdAt) kept, gaps counted.
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { now } from "./world";

const CREATED_AT = '"createdAt":"';

export class Subscriber {
  /** ids in the order they arrived, and each one's latency in ms (same index) */
  readonly ids: number[] = [];
  readonly latencies: number[] = [];
  gaps = 0;
  private buffer = "";
  private req: ClientRequest | undefined;
  private res: IncomingMessage | undefined;
  private pausedUntil = 0;

  /** `slow`: reads one chunk a second (a reader that cannot keep up), until `slow` is set false. */
  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    public slow = false,
  ) {}

  /** Resolves once the server has subscribed (its `: connected` comment): later events will come. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      let connected = false;
      this.req = request(
        `${this.url}/api/v1/events/stream`,
        { headers: { Authorization: `Bearer ${this.apiKey}`, Accept: "text/event-stream" } },
        (res) => {
          this.res = res;
          if (res.statusCode !== 200) {
            reject(new Error(`event stream answered ${res.statusCode}`));
            res.resume();
            return;
          }
          res.on("data", (chunk: Buffer) => {
            const at = now();
            this.buffer += chunk.toString("utf8");
            for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
              const block = this.buffer.slice(0, end);
              this.buffer = this.buffer.slice(end + 2);
              if (!connected && block.includes(": connected")) {
                connected = true;
                resolve();
              } else this.read(block, at);
            }
            if (this.slow) this.throttle();
          });
          res.on("error", () => {});
        },
      );
      this.req.on("error", (error) => (connected ? undefined : reject(error)));
      this.req.end();
    });
  }

  /** Reads as fast as it can from now on. */
  hurry(): void {
    this.slow = false;
    this.res?.resume();
  }

  get lastId(): number {
    return this.ids.at(-1) ?? 0;
  }

  close(): void {
    this.req?.destroy();
  }

  private throttle(): void {
    const res = this.res;
    if (!res || this.pausedUntil > Date.now()) return;
    res.pause();
    this.pausedUntil = Date.now() + 1000;
    setTimeout(() => {
      if (this.slow) res.resume();
    }, 1000);
  }

  private read(block: string, at: number): void {
    if (block.startsWith("id: ")) {
      const id = Number(block.slice(4, block.indexOf("\n")));
      const from = block.indexOf(CREATED_AT) + CREATED_AT.length;
      this.ids.push(id);
      this.latencies.push(at - Date.parse(block.slice(from, from + 24)));
    } else if (block.includes("event: gap")) this.gaps++;
  }
}

/** What a subscriber got of the expected ids (the table's, in order): lost, duplicated, out of order. */
export function compareIds(
  received: readonly number[],
  expected: readonly number[],
): { lost: number; duplicated: number; outOfOrder: number } {
  const first = expected[0] ?? 0;
  const last = expected.at(-1) ?? 0;
  const inWindow = received.filter((id) => id >= first && id <= last);
  let outOfOrder = 0;
  for (let i = 1; i < inWindow.length; i++)
    if ((inWindow[i] as number) <= (inWindow[i - 1] as number)) outOfOrder++;
  const sorted = [...inWindow].sort((a, b) => a - b);
  let duplicated = 0;
  const unique: number[] = [];
  for (const id of sorted) {
    if (unique.at(-1) === id) duplicated++;
    else unique.push(id);
  }
  let matched = 0;
  let j = 0;
  for (const id of expected) {
    while (j < unique.length && (unique[j] as number) < id) j++;
    if (unique[j] === id) matched++;
  }
  // Ids in the window the table does not have would be events of another workspace, or invented.
  const foreign = unique.length - matched;
  return { lost: expected.length - matched, duplicated: duplicated + foreign, outOfOrder };
}

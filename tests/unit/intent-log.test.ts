import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IntentLog } from "@/lib/calls/intent-log";

describe("IntentLog", () => {
  let folder: string;
  let file: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), "intent-log-"));
    file = path.join(folder, "call-intents.log");
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const intent = (callId: string) => ({ callId, values: [callId, "x".repeat(700), null] });
  const callIdsIn = () =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { callId: string }).callId);

  it("hands a previous run's lines back as leftovers, skipping a torn last line", () => {
    const { log } = IntentLog.open(file);
    log.append(intent("a"));
    log.append(intent("b"));
    appendFileSync(file, '{"callId":"torn","values":["to');

    const { leftovers } = IntentLog.open(file);
    expect(leftovers.map((left) => left.callId)).toEqual(["a", "b"]);
    expect(leftovers[0]?.values).toEqual(intent("a").values);
  });

  it("empties itself when every call it names is written, and not before", () => {
    const { log } = IntentLog.open(file);
    log.append(intent("a"));
    log.append(intent("b"));
    log.written(["a"]);
    expect(callIdsIn()).toEqual(["a", "b"]);
    log.written(["b"]);
    expect(readFileSync(file, "utf8")).toBe("");
    log.append(intent("c"));
    expect(callIdsIn()).toEqual(["c"]);
  });

  it("under unbroken load, rewrites itself with only the calls still unwritten once past 1 MiB", () => {
    const { log } = IntentLog.open(file);
    // One call stays unwritten throughout, as one always does when calls keep overlapping.
    log.append(intent("long-running"));
    let largest = 0;
    for (let i = 0; i < 3000; i++) {
      log.append(intent(`quick-${i}`));
      log.written([`quick-${i}`]);
      largest = Math.max(largest, statSync(file).size);
    }
    // 1 MiB, plus twice what is still unwritten, plus the line that crossed it.
    expect(largest).toBeLessThan(1024 * 1024 + 4 * 1024);
    const left = callIdsIn();
    // Rewritten at least once (3,000 lines are over 2 MiB); the unwritten call always kept.
    expect(left.length).toBeLessThan(1500);
    expect(left[0]).toBe("long-running");
    log.append(intent("next"));
    expect(callIdsIn().at(-1)).toBe("next");
    log.written(["long-running", "next"]);
    expect(readFileSync(file, "utf8")).toBe("");
  });
});

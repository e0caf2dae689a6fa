import { describe, expect, it } from "vitest";
import { ShutdownGate } from "@/lib/runtime/shutdown-state";

/** The gate's phases, as the shutdown (lib/runtime/shutdown.ts) and the call path use them. */
describe("ShutdownGate", () => {
  it("counts work in flight and says when none is left", async () => {
    const gate = new ShutdownGate();
    let finish = () => {};
    const work = gate.track(() => new Promise<string>((resolve) => (finish = () => resolve("done"))));
    expect(gate.workInFlight).toBe(1);
    const idle = gate.whenIdle(60_000);
    finish();
    expect(await work).toBe("done");
    expect(await idle).toBe(true);
    expect(gate.workInFlight).toBe(0);
  });

  it("stops waiting for work after the timeout, and counts failed work as ended", async () => {
    const gate = new ShutdownGate();
    void gate.track(() => new Promise(() => {}));
    expect(await gate.whenIdle(10)).toBe(false);
    void gate.track(() => new Promise(() => {}), "run");
    expect(gate.callsRunning).toBe(1);
    expect(gate.workInFlight).toBe(2);
    await expect(gate.track(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(gate.workInFlight).toBe(2);
  });

  it("tells listeners of each phase once, in order, and at once when the phase has passed", () => {
    const gate = new ShutdownGate();
    const heard: string[] = [];
    gate.on("draining", () => heard.push("draining"));
    const unsubscribed = gate.on("interrupted", () => heard.push("never"));
    unsubscribed();
    gate.on("interrupted", () => heard.push("interrupted"));
    gate.beginDraining();
    gate.beginDraining();
    expect(gate.phase).toBe("draining");
    gate.interrupt();
    gate.on("draining", () => heard.push("late draining"));
    expect(heard).toEqual(["draining", "interrupted", "late draining"]);
    expect(gate.phase).toBe("interrupted");
  });
});

import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "@/lib/events/event-types";
import { processEventHub } from "@/lib/events/record-event";
import {
  API_KEYS,
  catalogNamespace,
  decisionCache,
  serverCatalogNamespace,
} from "@/lib/policy/decision-cache";

let nextId = 1_000_000;
function publish(event: Record<string, unknown> & { type: string }, tenantId = "t1"): void {
  processEventHub.publish({
    ...event,
    id: nextId++,
    tenantId,
    createdAt: new Date().toISOString(),
  } as RecordedEvent);
}

/** A loader that counts its calls and answers with the count. */
function counter() {
  let calls = 0;
  return { load: async () => ++calls, calls: () => calls };
}

describe("the decision cache", () => {
  it("answers repeated questions from memory until a change in that workspace is published", async () => {
    const grants = counter();
    expect(await decisionCache.get("t1", "grants:a", grants.load)).toBe(1);
    expect(await decisionCache.get("t1", "grants:a", grants.load)).toBe(1);
    expect(grants.calls()).toBe(1);

    // Another workspace's change, and events that change no decision, keep it.
    publish({ type: "policy.changed", subject: "grants", subjectId: "x" }, "t2");
    publish({ type: "call.started", callId: "c" });
    expect(await decisionCache.get("t1", "grants:a", grants.load)).toBe(1);

    publish({ type: "policy.changed", subject: "grants", subjectId: "a" });
    expect(await decisionCache.get("t1", "grants:a", grants.load)).toBe(2);
  });

  it("drops what a catalog or server change may have changed", async () => {
    for (const type of ["catalog.changed", "server.updated", "server.deleted", "server.registered"]) {
      const target = counter();
      await decisionCache.get("t3", `target:${type}`, target.load);
      publish({ type, serverId: "s", serverName: "s" }, "t3");
      await decisionCache.get("t3", `target:${type}`, target.load);
      expect(target.calls(), type).toBe(2);
    }
  });

  it("keeps the workspace's catalog across policy changes that do not touch tools", async () => {
    const catalog = counter();
    const read = () => decisionCache.get(catalogNamespace("t6"), "governed-tools", catalog.load);
    await read();
    for (const subject of ["grants", "principal", "api_key", "approval_policy", "secret", "limits"])
      publish({ type: "policy.changed", subject, subjectId: null }, "t6");
    expect(await read()).toBe(1);
    // A tool's own settings, the gateway's naming, the catalog and servers do.
    let expected = 1;
    for (const event of [
      { type: "policy.changed", subject: "tool", subjectId: "x" },
      { type: "policy.changed", subject: "gateway", subjectId: null },
      { type: "catalog.changed", serverId: "s", serverName: "s" },
      { type: "server.updated", serverId: "s", serverName: "s" },
    ]) {
      publish(event, "t6");
      expect(await read(), JSON.stringify(event)).toBe(++expected);
    }
  });

  it("drops one server's part of the catalog for a change of that server or its tools, every part for a renaming", async () => {
    const [a, b] = [counter(), counter()];
    const read = () =>
      Promise.all([
        decisionCache.get(serverCatalogNamespace("t7", "a"), "governed-tools", a.load),
        decisionCache.get(serverCatalogNamespace("t7", "b"), "governed-tools", b.load),
      ]);
    await read();
    publish({ type: "catalog.changed", serverId: "a", serverName: "a" }, "t7");
    expect(await read()).toEqual([2, 1]);
    publish({ type: "server.updated", serverId: "b", serverName: "b" }, "t7");
    publish({ type: "policy.changed", subject: "grants", subjectId: null }, "t7");
    expect(await read()).toEqual([2, 2]);
    publish({ type: "policy.changed", subject: "tool", subjectId: "x", serverId: "a" }, "t7");
    expect(await read()).toEqual([3, 2]);
    // The gateway's naming renames across servers: every part goes.
    publish({ type: "policy.changed", subject: "tool", subjectId: null }, "t7");
    expect(await read()).toEqual([4, 3]);
  });

  it("never keeps an answer whose load was under way when the change came", async () => {
    let release: (value: string) => void = () => {};
    const slow = new Promise<string>((resolve) => {
      release = resolve;
    });
    const before = decisionCache.get("t4", "policy", () => slow);
    publish({ type: "policy.changed", subject: "approval_policy", subjectId: null }, "t4");
    release("read before the change");
    expect(await before).toBe("read before the change");
    expect(await decisionCache.get("t4", "policy", async () => "read after")).toBe("read after");
  });

  it("does not keep a failure: the next question asks again", async () => {
    await expect(
      decisionCache.get("t5", "k", async () => {
        throw new Error("database away");
      }),
    ).rejects.toThrow("database away");
    expect(await decisionCache.get("t5", "k", async () => "back")).toBe("back");
  });

  it("does not keep a miss: a name that does not exist is asked about again, not remembered", async () => {
    let asked = 0;
    const missing = async () => {
      asked++;
      return undefined;
    };
    expect(await decisionCache.get("t6", "target:nowhere__nothing", missing)).toBeUndefined();
    expect(await decisionCache.get("t6", "target:nowhere__nothing", missing)).toBeUndefined();
    expect(asked).toBe(2);
  });

  it("forgets every verified API key when a key is revoked or a principal deleted in any workspace", async () => {
    for (const subject of ["api_key", "principal"]) {
      decisionCache.invalidate(API_KEYS);
      const keys = counter();
      await decisionCache.get(API_KEYS, "hash", keys.load);
      publish({ type: "policy.changed", subject: "tool", subjectId: "x" }, "elsewhere");
      await decisionCache.get(API_KEYS, "hash", keys.load);
      expect(keys.calls(), `${subject}: unrelated change`).toBe(1);
      publish({ type: "policy.changed", subject, subjectId: "x" }, "elsewhere");
      await decisionCache.get(API_KEYS, "hash", keys.load);
      expect(keys.calls(), subject).toBe(2);
    }
  });
});

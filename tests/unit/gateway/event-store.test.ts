import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SessionEventStore } from "@/lib/gateway/sessions/event-store";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { n },
});

async function replay(store: SessionEventStore, after: string) {
  const sent: Array<{ id: string; message: JSONRPCMessage }> = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push({ id, message });
    },
  });
  return { streamId, sent };
}

describe("a gateway session's event store (resumable streams)", () => {
  it("replays what one stream was sent after the given event, in order, and nothing of other streams", async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent("get", note(1));
    await store.storeEvent("post-7", note(99));
    await store.storeEvent("get", note(2));
    await store.storeEvent("get", note(3));
    const { streamId, sent } = await replay(store, first);
    expect(streamId).toBe("get");
    expect(sent.map((e) => (e.message as unknown as { params: { n: number } }).params.n)).toEqual([2, 3]);
    expect(await store.getStreamIdForEventId(first)).toBe("get");
  });

  it("does not send priming events again (they only carry an id)", async () => {
    const store = new SessionEventStore();
    const primed = await store.storeEvent("post-1", {} as JSONRPCMessage);
    await store.storeEvent("post-1", {} as JSONRPCMessage);
    await store.storeEvent("post-1", { jsonrpc: "2.0", id: 1, result: {} });
    const { sent } = await replay(store, primed);
    expect(sent.map((e) => e.message)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("forgets the oldest beyond its bounds: a client gone too long cannot resume (the SDK answers 400)", async () => {
    const store = new SessionEventStore();
    const oldest = await store.storeEvent("get", note(0));
    const big = {
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "x".repeat(3 * 1024 * 1024) }] },
    };
    const latest = await store.storeEvent("get", big as JSONRPCMessage);
    expect(await store.getStreamIdForEventId(oldest)).toBeUndefined();
    expect(await store.getStreamIdForEventId(latest)).toBe("get");
    expect((await replay(store, oldest)).streamId).toBe("");
  });
});

import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The last messages a gateway session sent, so a client whose event stream dropped can resume it
 * with `Last-Event-ID` and miss nothing (a list_changed, a resource update, a call's answer).
 * In memory, like the session, and bounded: a client that was gone for longer than the last
 * CAPACITY messages gets a 400 and starts the stream afresh.
 */
const CAPACITY = 500;

type Stored = { id: EventId; streamId: StreamId; message: JSONRPCMessage };

export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private sequence = 0;

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${++this.sequence}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > CAPACITY) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.find(lastEventId);
    if (!last) return "";
    for (const event of this.events) {
      if (Number(event.id) > Number(last.id) && event.streamId === last.streamId)
        await send(event.id, event.message);
    }
    return last.streamId;
  }

  private find(eventId: EventId): Stored | undefined {
    return this.events.find((event) => event.id === eventId);
  }
}

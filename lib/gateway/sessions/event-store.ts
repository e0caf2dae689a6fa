import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The last messages a gateway session sent, so a client whose event stream dropped can resume it
 * with `Last-Event-ID` and miss nothing (a list_changed, a resource update, a call's answer).
 * In memory, like the session, and bounded by count and by size (tool results can be large and a
 * process holds up to a thousand sessions): a client gone longer than that gets a 400 and starts
 * its stream afresh.
 */
const MAX_EVENTS = 500;
const MAX_BYTES = 2 * 1024 * 1024;

type Stored = { id: EventId; streamId: StreamId; message: JSONRPCMessage; bytes: number };

export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private sequence = 0;
  private bytes = 0;

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${++this.sequence}`;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.events.push({ id, streamId, message, bytes });
    this.bytes += bytes;
    while (this.events.length > MAX_EVENTS || (this.bytes > MAX_BYTES && this.events.length > 1)) {
      this.bytes -= this.events.shift()?.bytes ?? 0;
    }
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
      // A priming event (empty, only an id to resume from) is no message to send again.
      const isPriming = Object.keys(event.message).length === 0;
      if (Number(event.id) > Number(last.id) && event.streamId === last.streamId && !isPriming)
        await send(event.id, event.message);
    }
    return last.streamId;
  }

  private find(eventId: EventId): Stored | undefined {
    return this.events.find((event) => event.id === eventId);
  }
}

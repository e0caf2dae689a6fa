import type { Database } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { trackSseSubscriber } from "@/lib/observability/metrics";
import { getDatabase } from "@/lib/runtime/process-db";
import { parseEventFilter } from "./filter";
import { readEventsAfter } from "./history";
import { stableFeedFor, startEventRelay } from "./record-event";
import { createEventStream, parseLastEventId, SSE_HEADERS } from "./sse";

/**
 * GET /api/v1/events/stream for one authenticated workspace: validates the query before any byte
 * is streamed (so a bad filter is a plain 400), makes sure this process hears other processes,
 * and answers with the SSE stream, which ends when the request is aborted.
 */
export async function eventStreamResponse(params: {
  req: Request;
  db: Database;
  tenantId: string;
}): Promise<Response> {
  const { req, db, tenantId } = params;
  const filter = parseEventFilter(new URL(req.url).searchParams);
  const lastEventId = parseLastEventId(req);
  // The runtime starts the relay at boot; if that attempt failed, the first stream retries it.
  const handle = await getDatabase();
  await startEventRelay(handle).catch((error: unknown) =>
    log.error(`event relay not started: ${(error as Error).message}`),
  );
  const feed = stableFeedFor(handle);
  const stream = createEventStream({
    tenantId,
    filter,
    ...(lastEventId === undefined ? {} : { lastEventId }),
    readAfter: (afterId, upTo, limit) => readEventsAfter(db, { tenantId, filter, afterId, upTo, limit }),
    follow: (listener) => feed.subscribe(listener),
    signal: req.signal,
    onClose: trackSseSubscriber(),
    onError: (error) => log.error(`event stream: ${(error as Error).message}`),
  });
  return new Response(stream, { headers: SSE_HEADERS });
}

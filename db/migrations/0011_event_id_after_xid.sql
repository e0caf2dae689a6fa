-- An event's id is taken only after its transaction has an xid (lib/events/stable-feed.ts): then
-- "every transaction that had an xid before X has ended" also means "every id taken before X is
-- committed or gone", which is how a stream knows no lower id can still appear. A plain serial
-- default takes the number first and the xid only when the row is written, a moment later.
CREATE OR REPLACE FUNCTION next_event_id() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_current_xact_id();
  RETURN nextval('events_id_seq');
END
$$;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "id" SET DEFAULT next_event_id();

ALTER TABLE "approvals" ADD COLUMN "required_because" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "sealed_arguments" text;--> statement-breakpoint
CREATE INDEX "events_call_id_idx" ON "events" USING btree ("call_id");
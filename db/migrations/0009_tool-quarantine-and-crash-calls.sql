CREATE TABLE "server_crash_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"server_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"exit_code" integer,
	"exit_signal" text,
	"crashed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "quarantined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "quarantined_by" text;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "quarantine_reason" text;--> statement-breakpoint
ALTER TABLE "server_crash_calls" ADD CONSTRAINT "server_crash_calls_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_crash_calls" ADD CONSTRAINT "server_crash_calls_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_crash_calls_server_idx" ON "server_crash_calls" USING btree ("server_id","crashed_at");
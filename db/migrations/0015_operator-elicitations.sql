CREATE TABLE "elicitations" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"call_id" text NOT NULL,
	"server_id" text,
	"server_name" text NOT NULL,
	"message" text NOT NULL,
	"requested_schema" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"content" jsonb,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "elicitations_tenant_status_idx" ON "elicitations" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "elicitations_call_idx" ON "elicitations" USING btree ("call_id");
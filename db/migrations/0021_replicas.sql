CREATE TABLE "gateway_session_owners" (
	"session_id" text PRIMARY KEY NOT NULL,
	"replica_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"principal_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_session_owners" ADD CONSTRAINT "gateway_session_owners_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_session_owners_replica_idx" ON "gateway_session_owners" USING btree ("replica_id");
CREATE TABLE "server_replica_status" (
	"server_id" text NOT NULL,
	"replica_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"state" text DEFAULT 'disconnected' NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "server_replica_status_server_id_replica_id_pk" PRIMARY KEY("server_id","replica_id")
);
--> statement-breakpoint
ALTER TABLE "health_checks" ADD COLUMN "replica_id" text;--> statement-breakpoint
ALTER TABLE "server_replica_status" ADD CONSTRAINT "server_replica_status_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_replica_status" ADD CONSTRAINT "server_replica_status_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_replica_status_replica_idx" ON "server_replica_status" USING btree ("replica_id");
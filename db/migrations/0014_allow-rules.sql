CREATE TABLE "allow_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"principal_id" text NOT NULL,
	"gateway_name" text NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_by_name" text,
	"source_call_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by_name" text
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "allowed_by_rule" text;--> statement-breakpoint
ALTER TABLE "allow_rules" ADD CONSTRAINT "allow_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allow_rules" ADD CONSTRAINT "allow_rules_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allow_rules_lookup_idx" ON "allow_rules" USING btree ("tenant_id","principal_id","gateway_name");
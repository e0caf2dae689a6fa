CREATE TABLE "sign_in_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_setup" (
	"id" text PRIMARY KEY NOT NULL,
	"completed_by" text,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instance_setup" ADD CONSTRAINT "instance_setup_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Installs set up before this table existed: one with an instance owner has been set up.
INSERT INTO "instance_setup" ("id", "completed_by") SELECT 'instance', "user_id" FROM "instance_owners" ORDER BY "created_at" LIMIT 1;--> statement-breakpoint
-- "No self-approval" is on by default from now on, in new workspaces only: the workspaces that exist keep what they had (off unless they set it).
UPDATE "tenant_policies" SET "policy" = "policy" || '{"forbidSelfApproval": false}'::jsonb WHERE "kind" = 'approvals' AND "policy" -> 'forbidSelfApproval' IS NULL;--> statement-breakpoint
INSERT INTO "tenant_policies" ("tenant_id", "kind", "policy") SELECT "id", 'approvals', '{"forbidSelfApproval": false}'::jsonb FROM "tenants" WHERE NOT EXISTS (SELECT 1 FROM "tenant_policies" WHERE "tenant_policies"."tenant_id" = "tenants"."id" AND "tenant_policies"."kind" = 'approvals');

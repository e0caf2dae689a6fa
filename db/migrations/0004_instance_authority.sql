CREATE TABLE "instance_owners" (
	"user_id" text PRIMARY KEY NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"policy" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "program_path" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "launch_approved_by" text;--> statement-breakpoint
ALTER TABLE "instance_owners" ADD CONSTRAINT "instance_owners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- An install set up before instance owners existed: the person who completed first-run setup (the first account) owns it.
INSERT INTO "instance_owners" ("user_id") SELECT "id" FROM "users" ORDER BY "created_at" LIMIT 1;

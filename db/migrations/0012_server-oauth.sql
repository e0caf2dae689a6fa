CREATE TABLE "oauth_authorizations" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"server_id" text NOT NULL,
	"user_id" text,
	"started_by" text NOT NULL,
	"code_verifier" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "server_oauth" (
	"server_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"status" text DEFAULT 'not_connected' NOT NULL,
	"registration" text,
	"issuer" text,
	"discovery" jsonb,
	"client_information" text,
	"tokens" text,
	"token_version" integer DEFAULT 0 NOT NULL,
	"access_token_expires_at" timestamp with time zone,
	"scope" text,
	"needed_scope" text,
	"problem" jsonb,
	"connected_by" text,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_authorizations" ADD CONSTRAINT "oauth_authorizations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorizations" ADD CONSTRAINT "oauth_authorizations_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_oauth" ADD CONSTRAINT "server_oauth_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_oauth" ADD CONSTRAINT "server_oauth_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
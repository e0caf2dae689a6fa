ALTER TABLE "calls" ADD COLUMN "kind" text DEFAULT 'tool_call' NOT NULL;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "resource_reads_need_approval" boolean DEFAULT false NOT NULL;
import type { elicitations } from "@/db/schema";

/** An operator's question (lib/elicitations) as the REST API and the dashboard see it. */
export type ElicitationDto = {
  id: string;
  callId: string;
  /** the tool the call runs, as the gateway names it */
  tool: string | null;
  serverId: string | null;
  serverName: string;
  message: string;
  /** the server's form: a flat object schema of primitive fields */
  requestedSchema: Record<string, unknown>;
  status: (typeof elicitations.$inferSelect)["status"];
  /** the values an operator accepted with; null otherwise */
  content: Record<string, unknown> | null;
  decidedBy: string | null;
  decidedAt: string | null;
  expiresAt: string;
  createdAt: string;
};

export function toElicitationDto(row: typeof elicitations.$inferSelect, tool: string | null): ElicitationDto {
  return {
    id: row.id,
    callId: row.callId,
    tool,
    serverId: row.serverId,
    serverName: row.serverName,
    message: row.message,
    requestedSchema: row.requestedSchema,
    status: row.status,
    content: row.content ?? null,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

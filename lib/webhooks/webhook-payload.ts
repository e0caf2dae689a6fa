import { createHmac, randomBytes } from "node:crypto";
import type { WebhookFormat } from "./types";
import type { WebhookMessage } from "./webhook-events";

/**
 * What goes over the wire. Generic: `{id, type, createdAt, workspace, data}`, signed with
 * HMAC-SHA256 over "<timestamp>.<body>" (the timestamp is signed so a captured delivery cannot be
 * replayed later: receivers reject old ones). Slack: an incoming-webhook message `{text, blocks}`;
 * its URL is the credential, so it carries no signature.
 */

export type { WebhookFormat };

export type StoredPayload = {
  /** the event's id (or "test-…") — stable across retries, for receivers to drop duplicates */
  id: string;
  type: WebhookMessage["type"] | "webhook.test";
  createdAt: string;
  workspace: { id: string; name: string };
  summary: string;
  url: string;
  data: Record<string, unknown>;
};

export function bodyOf(format: WebhookFormat, payload: StoredPayload): string {
  if (format === "generic") {
    const { id, type, createdAt, workspace, summary, url, data } = payload;
    return JSON.stringify({ id, type, createdAt, workspace, data: { ...data, summary, url } });
  }
  const text = `${payload.summary} — ${payload.workspace.name}`;
  return JSON.stringify({
    text: `${escapeSlack(text)} <${payload.url}|Open in Switchboard>`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: escapeSlack(text) } },
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Open in Switchboard" }, url: payload.url },
        ],
      },
    ],
  });
}

/** Slack's mrkdwn gives &, < and > a meaning: a tool name or reason must not make a link. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` — docs/events-and-webhooks.md, "Webhooks". */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export function headersOf(params: {
  format: WebhookFormat;
  secret: string | null;
  deliveryId: string;
  type: string;
  body: string;
  now: Date;
}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Switchboard-Webhooks/1",
  };
  if (params.format === "slack") return headers;
  const timestamp = Math.floor(params.now.getTime() / 1000);
  headers["x-switchboard-event"] = params.type;
  headers["x-switchboard-delivery"] = params.deliveryId;
  headers["x-switchboard-timestamp"] = String(timestamp);
  if (params.secret) headers["x-switchboard-signature"] = signatureOf(params.secret, timestamp, params.body);
  return headers;
}

/** A new signing secret: 32 random bytes, prefixed so people recognize it in a vault. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

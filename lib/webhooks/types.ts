/** What the browser may know of webhooks: the DTOs the API and the Settings page share. */

export type WebhookFormat = "slack" | "generic";

export type WebhookDto = {
  id: string;
  name: string;
  format: WebhookFormat;
  /** scheme and host, the rest masked: a Slack URL is a credential */
  url: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

export type WebhookAttemptDto = {
  at: string;
  /** the receiver's HTTP status; null when none came (refused, unreachable, timed out) */
  status: number | null;
  error: string | null;
  durationMs: number;
};

export type DeliveryDto = {
  id: string;
  type: string;
  status: "pending" | "delivered" | "failed";
  attempts: WebhookAttemptDto[];
  /** when the next attempt is due; null once delivered or failed */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
};

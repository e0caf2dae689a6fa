import "server-only";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { subscribeEvents } from "@/lib/events/record-event";
import { log } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";
import { enqueueEventDeliveries } from "./deliveries";
import { postWebhook } from "./webhook-fetch";
import { bodyOf, headersOf, type StoredPayload } from "./webhook-payload";
import { openWebhookTarget } from "./webhooks";

/**
 * This process's webhook sender. It turns events into outbox rows (each process tries; the
 * unique index keeps one) and sends due rows: a claim moves a row's next_attempt_at past the
 * request's time limit (FOR UPDATE SKIP LOCKED, so two processes never take the same row), the
 * POST runs outside any transaction, and its outcome is written with the next retry's time.
 * Nothing here is awaited by a call or a decision: a slow or failing receiver only delays its rows.
 */
export type WebhookWorkerOptions = {
  /** waits between attempts, seconds: one retry per entry (SWITCHBOARD_WEBHOOK_RETRY_SECONDS) */
  retrySeconds: readonly number[];
  timeoutMs: number;
  /** how often due rows are looked for, besides the nudge of a new row */
  pollMs: number;
  batchSize: number;
};

const defaults = (): WebhookWorkerOptions => ({
  retrySeconds: readEnv().webhookRetrySeconds,
  timeoutMs: 10_000,
  pollMs: 2_000,
  batchSize: 10,
});

export class WebhookWorker {
  private readonly options: WebhookWorkerOptions;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => {};
  private enqueueing: Promise<void> = Promise.resolve();
  private sweep: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    options: Partial<WebhookWorkerOptions> = {},
  ) {
    this.options = { ...defaults(), ...options };
  }

  start(): void {
    this.unsubscribe = subscribeEvents((event) => {
      // The listener must not block: queue, in order, and look for due rows once inserted.
      this.enqueueing = this.enqueueing
        .then(() => enqueueEventDeliveries(this.db, event))
        .then(
          (added) => {
            if (added > 0) this.nudge();
          },
          (error: unknown) =>
            log.error(`webhook deliveries of event ${event.id} not queued: ${(error as Error).message}`),
        );
    });
    this.timer = setInterval(() => this.nudge(), this.options.pollMs);
    this.timer.unref();
    this.nudge();
  }

  /** Looks for due rows now (a new delivery, a "Send test"). */
  nudge(): void {
    if (this.stopped) return;
    if (this.sweep) {
      this.again = true;
      return;
    }
    this.sweep = (async () => {
      do {
        this.again = false;
        try {
          while (!this.stopped && (await this.deliverDue()) > 0) {}
        } catch (error) {
          log.error(`webhook deliveries: ${(error as Error).message}`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.sweep = undefined;
    });
  }

  /** Stops taking rows; waits for the ones being sent (each within its time limit). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    await this.enqueueing;
    await this.sweep;
  }

  /** Claims and sends one batch of due rows; returns how many it took. */
  async deliverDue(): Promise<number> {
    const leaseSeconds = Math.ceil(this.options.timeoutMs / 1000) + 30;
    const due = this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, sql`now()`)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(this.options.batchSize)
      .for("update", { skipLocked: true });
    const claimed = await this.db
      .update(webhookDeliveries)
      .set({
        nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds}::double precision)`,
        updatedAt: sql`now()`,
      })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
    await Promise.all(claimed.map((row) => this.deliver(row)));
    return claimed.length;
  }

  private async deliver(row: typeof webhookDeliveries.$inferSelect): Promise<void> {
    const [hook] = await this.db.select().from(webhooks).where(eq(webhooks.id, row.webhookId));
    const startedAt = new Date();
    let outcome: { ok: boolean; status: number | null; error: string | null };
    if (!hook) return; // deleted meanwhile: its rows went with it
    if (!hook.enabled && row.type !== "webhook.test") {
      outcome = { ok: false, status: null, error: "the webhook is disabled" };
    } else {
      const { url, secret } = openWebhookTarget(hook);
      const payload = row.payload as unknown as StoredPayload;
      const body = bodyOf(hook.format, payload);
      const result = await postWebhook(this.db, {
        tenantId: hook.tenantId,
        url,
        headers: headersOf({
          format: hook.format,
          secret,
          deliveryId: row.id,
          type: row.type,
          body,
          now: startedAt,
        }),
        body,
        timeoutMs: this.options.timeoutMs,
      });
      outcome = result.ok ? { ...result, error: null } : result;
    }
    const attempt = {
      at: startedAt.toISOString(),
      status: outcome.status,
      error: outcome.error,
      durationMs: Date.now() - startedAt.getTime(),
    };
    const attemptCount = row.attemptCount + 1;
    // A disabled webhook's rows end at once: retrying would only wait for someone to enable it.
    const isFinal = outcome.ok || (!hook.enabled && row.type !== "webhook.test");
    const retryIn = isFinal ? undefined : this.options.retrySeconds[attemptCount - 1];
    const status = outcome.ok ? "delivered" : retryIn === undefined ? "failed" : "pending";
    await this.db
      .update(webhookDeliveries)
      .set({
        status,
        attemptCount,
        attempts: [...row.attempts, attempt],
        nextAttemptAt:
          retryIn === undefined
            ? sql`now()`
            : sql`now() + make_interval(secs => ${retryIn}::double precision)`,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookDeliveries.id, row.id));
  }
}

const workers = processSingleton("WebhookWorker", () => ({
  current: undefined as WebhookWorker | undefined,
}));

/** Starts this process's worker once (lib/runtime/start). */
export function startWebhookWorker(db: Database): WebhookWorker {
  if (!workers.current) {
    workers.current = new WebhookWorker(db);
    workers.current.start();
  }
  return workers.current;
}

/** Stops it (lib/runtime/shutdown, before the database closes). */
export async function stopWebhookWorker(): Promise<void> {
  const worker = workers.current;
  workers.current = undefined;
  await worker?.stop();
}

/** Tells the worker a row was added by this process (Send test): it need not wait for its poll. */
export function nudgeWebhookWorker(): void {
  workers.current?.nudge();
}

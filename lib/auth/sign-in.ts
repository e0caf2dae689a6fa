import { APIError } from "better-auth/api";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { countRecentAudit, recordAudit } from "./audit";
import { getAuth } from "./better-auth";
import { signInSchema } from "./credentials-schema";
import { clientAddress } from "./request-info";

const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Email + password sign-in. Failures are audited, and the audit log is the rate limit: after
 * five failures for one email in 15 minutes, further attempts are refused without checking the
 * password — in every process sharing the database.
 */
export async function signIn(db: Database, params: { input: unknown; headers: Headers }): Promise<void> {
  const { email, password } = parseOrThrow(signInSchema, params.input, "Sign-in");
  const ipAddress = clientAddress(params.headers);
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  if (
    (await countRecentAudit(db, { action: "auth.sign_in_failed", subject: email, since })) >= MAX_FAILURES
  ) {
    throw new AppError(
      "rate_limited",
      "Too many failed sign-ins for this account. Wait 15 minutes and try again.",
    );
  }
  try {
    const result = await getAuth(db).api.signInEmail({ body: { email, password }, headers: params.headers });
    await recordAudit(db, {
      action: "auth.signed_in",
      actorKind: "operator",
      actorId: result.user.id,
      subject: email,
      ipAddress,
    });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    await recordAudit(db, {
      action: "auth.sign_in_failed",
      actorKind: "anonymous",
      subject: email,
      ipAddress,
    });
    // One message for unknown email and wrong password: don't reveal which accounts exist.
    throw new AppError("unauthenticated", "Wrong email or password.");
  }
}

export async function signOut(db: Database, params: { headers: Headers; userId: string }): Promise<void> {
  await getAuth(db).api.signOut({ headers: params.headers });
  await recordAudit(db, { action: "auth.signed_out", actorKind: "operator", actorId: params.userId });
}

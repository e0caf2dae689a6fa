import { APIError } from "better-auth/api";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { recordAudit } from "./audit";
import { getAuth } from "./better-auth";
import { signInSchema } from "./credentials-schema";
import { clientAddress } from "./request-info";
import { reserveSignInAttempt } from "./sign-in-limits";

/**
 * Email + password sign-in. Each attempt is reserved against the limits (lib/auth/sign-in-limits)
 * before its password is checked, so concurrent guesses cannot all slip under them; a success
 * gives its reservation back. Sign-ins and failures are audited.
 */
export async function signIn(db: Database, params: { input: unknown; headers: Headers }): Promise<void> {
  const { email, password } = parseOrThrow(signInSchema, params.input, "Sign-in");
  const ipAddress = clientAddress(params.headers);
  const reservation = await reserveSignInAttempt(db, { email, address: ipAddress });
  let userId: string;
  try {
    const result = await getAuth(db).api.signInEmail({ body: { email, password }, headers: params.headers });
    userId = result.user.id;
  } catch (error) {
    if (!(error instanceof APIError)) {
      await reservation.release();
      throw error;
    }
    await recordAudit(db, {
      action: "auth.sign_in_failed",
      actorKind: "anonymous",
      subject: email,
      ipAddress,
    });
    // One message for unknown email and wrong password: don't reveal which accounts exist.
    throw new AppError("unauthenticated", "Wrong email or password.");
  }
  await reservation.release();
  await recordAudit(db, {
    action: "auth.signed_in",
    actorKind: "operator",
    actorId: userId,
    subject: email,
    ipAddress,
  });
}

export async function signOut(db: Database, params: { headers: Headers; userId: string }): Promise<void> {
  await getAuth(db).api.signOut({ headers: params.headers });
  await recordAudit(db, { action: "auth.signed_out", actorKind: "operator", actorId: params.userId });
}

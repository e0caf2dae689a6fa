"use server";

import { type ActionResult, runPublicAction } from "@/lib/actions/action-result";
import { requireSessionUserId } from "@/lib/auth/accounts";
import { acceptInvitation, joinWithNewAccount } from "@/lib/auth/join-workspace";
import { completeSetup } from "@/lib/auth/setup";
import { signIn } from "@/lib/auth/sign-in";

// These run before anyone is signed in; each service validates its own input.

export async function signInAction(input: unknown): Promise<ActionResult<null>> {
  return runPublicAction(async ({ db, headers }) => {
    await signIn(db, { input, headers });
    return null;
  });
}

export async function completeSetupAction(input: unknown): Promise<ActionResult<null>> {
  return runPublicAction(async ({ db, headers }) => {
    await completeSetup(db, { input, headers });
    return null;
  });
}

/**
 * Joins as the signed-in operator, or — when `account` is given — creates the account in the same
 * transaction that uses the invitation (no account without a valid link).
 */
export async function acceptInvitationAction(token: unknown, account?: unknown): Promise<ActionResult<null>> {
  return runPublicAction(async ({ db, headers }) => {
    const link = String(token);
    if (account === undefined) {
      await acceptInvitation(db, { token: link, userId: await requireSessionUserId(db, headers) });
    } else {
      await joinWithNewAccount(db, { token: link, input: account, headers });
    }
    return null;
  });
}

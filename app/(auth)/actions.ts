"use server";

import { type ActionResult, runPublicAction } from "@/lib/actions/action-result";
import { createAccount, requireSessionUserId } from "@/lib/auth/accounts";
import { acceptInvitation } from "@/lib/auth/invitations";
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

/** Joins as the signed-in operator, or creates the account first when `account` is given. */
export async function acceptInvitationAction(token: unknown, account?: unknown): Promise<ActionResult<null>> {
  return runPublicAction(async ({ db, headers }) => {
    const userId =
      account === undefined
        ? await requireSessionUserId(db, headers)
        : (await createAccount(db, { input: account, headers })).userId;
    await acceptInvitation(db, { token: String(token), userId });
    return null;
  });
}

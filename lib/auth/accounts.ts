import { APIError } from "better-auth/api";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { getAuth } from "./better-auth";
import { newAccountSchema } from "./credentials-schema";

/** Creates an operator account and signs it in (the session cookie is set on the response). */
export async function createAccount(db: Database, params: { input: unknown; headers: Headers }) {
  const body = parseOrThrow(newAccountSchema, params.input, "The account");
  try {
    const { user } = await getAuth(db).api.signUpEmail({ body, headers: params.headers });
    return { userId: user.id, email: body.email };
  } catch (error) {
    if (error instanceof APIError && /exist/i.test(error.message)) {
      throw new AppError("conflict", "An account with this email already exists. Sign in instead.", {
        fieldErrors: { email: ["An account with this email already exists."] },
      });
    }
    if (error instanceof APIError) throw new AppError("validation", error.message);
    throw error;
  }
}

/** The signed-in operator's id, whether or not they belong to a workspace yet. */
export async function requireSessionUserId(db: Database, headers: Headers): Promise<string> {
  const session = await getAuth(db).api.getSession({ headers });
  if (!session) throw new AppError("unauthenticated", "Sign in to continue (your session may have expired).");
  return session.user.id;
}

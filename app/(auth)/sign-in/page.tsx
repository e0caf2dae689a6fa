import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CredentialsForm } from "@/components/auth/credentials-form";
import { Alert } from "@/components/ui/alert";
import { resolveOperator } from "@/lib/auth/actor";
import { safeNextPath } from "@/lib/auth/next-path";
import { setupComesFirst } from "@/lib/auth/setup";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { getDatabase } from "@/lib/runtime/process-db";
import { signInAction } from "../actions";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ reason?: string; next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const { db } = await getDatabase();
  if (await setupComesFirst(db)) redirect("/setup");
  const { reason, next } = await searchParams;
  const redirectTo = safeNextPath(next);
  if (await isSignedIntoWorkspace(db)) redirect(redirectTo);
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mb-6 text-sm text-slate-600">Use the account an admin created or invited you to.</p>
      {reason === "no-workspace" ? (
        <div className="mb-4">
          <Alert tone="info">
            You are not a member of any workspace yet. Open an invitation link from an admin.
          </Alert>
        </div>
      ) : null}
      <CredentialsForm
        fields={[
          { name: "email", label: "Email", type: "email", autoComplete: "username" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
        submitLabel="Sign in"
        pendingLabel="Signing in…"
        action={signInAction}
        redirectTo={redirectTo}
      />
    </>
  );
}

/**
 * Someone already signed in has nothing to do here. One signed in without a workspace stays:
 * the dashboard sends them here (reason=no-workspace), and sending them back would loop.
 */
async function isSignedIntoWorkspace(db: Database): Promise<boolean> {
  try {
    await resolveOperator(db, await headers());
    return true;
  } catch (error) {
    if (isAppError(error)) return false; // no session, or no workspace
    throw error;
  }
}

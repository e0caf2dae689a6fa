import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CredentialsForm } from "@/components/auth/credentials-form";
import { Alert } from "@/components/ui/alert";
import { setupComesFirst } from "@/lib/auth/setup";
import { getDatabase } from "@/lib/runtime/process-db";
import { signInAction } from "../actions";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ reason?: string; next?: string }> };

export default async function SignInPage({ searchParams }: Props) {
  const { db } = await getDatabase();
  if (await setupComesFirst(db)) redirect("/setup");
  const { reason, next } = await searchParams;
  // Only same-site paths: a `next` pointing elsewhere would make this page an open redirect.
  const redirectTo = next?.startsWith("/") && !next.startsWith("//") ? next : "/";
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

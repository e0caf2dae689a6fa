import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { CredentialsForm } from "@/components/auth/credentials-form";
import { JoinButton } from "@/components/auth/join-button";
import { Alert } from "@/components/ui/alert";
import { getAuth } from "@/lib/auth/better-auth";
import { getInvitation } from "@/lib/auth/invitations";
import { getDatabase } from "@/lib/runtime/process-db";
import { acceptInvitationAction } from "../../actions";

export const metadata: Metadata = { title: "Join a workspace" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

export default async function InvitePage({ params }: Props) {
  const { token } = await params;
  const { db } = await getDatabase();
  const invitation = await getInvitation(db, { token }).catch(() => null);
  if (!invitation?.isUsable) {
    return (
      <>
        <h1 className="mb-4 text-xl font-semibold text-slate-900">Invitation not valid</h1>
        <Alert>
          This invitation link has expired, was already used, or never existed. Ask an admin for a new one.
        </Alert>
      </>
    );
  }
  const session = await getAuth(db).api.getSession({ headers: await headers() });
  const joinWithAccount = acceptInvitationAction.bind(null, token);
  const title = (
    <>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Join {invitation.workspaceName}</h1>
      <p className="mb-6 text-sm text-slate-600">
        You are invited as <strong>{invitation.role}</strong>.
      </p>
    </>
  );
  if (session) {
    return (
      <>
        {title}
        <p className="mb-4 text-sm text-slate-700">Signed in as {session.user.email}.</p>
        <JoinButton token={token} />
      </>
    );
  }
  return (
    <>
      {title}
      <CredentialsForm
        fields={[
          { name: "name", label: "Your name", autoComplete: "name" },
          { name: "email", label: "Email", type: "email", autoComplete: "username" },
          {
            name: "password",
            label: "Password",
            type: "password",
            autoComplete: "new-password",
            hint: "At least 10 characters.",
          },
        ]}
        submitLabel="Create account and join"
        pendingLabel="Joining…"
        action={joinWithAccount}
        redirectTo="/"
      />
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link className="font-medium text-indigo-600" href={`/sign-in?next=/invite/${token}`}>
          Sign in first
        </Link>
      </p>
    </>
  );
}

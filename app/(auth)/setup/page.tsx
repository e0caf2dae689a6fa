import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { type CredentialField, CredentialsForm } from "@/components/auth/credentials-form";
import { needsSetup, setupNeedsToken } from "@/lib/auth/setup";
import { getDatabase } from "@/lib/runtime/process-db";
import { completeSetupAction } from "../actions";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

export default async function SetupPage() {
  const { db } = await getDatabase();
  if (!(await needsSetup(db))) redirect("/sign-in");
  const fields: CredentialField[] = [
    { name: "name", label: "Your name", autoComplete: "name" },
    { name: "email", label: "Email", type: "email", autoComplete: "username" },
    {
      name: "password",
      label: "Password",
      type: "password",
      autoComplete: "new-password",
      hint: "At least 10 characters.",
    },
  ];
  if (setupNeedsToken(await headers())) {
    fields.push({
      name: "setupToken",
      label: "Setup token",
      hint: "Printed in the server log when Switchboard started.",
    });
  }
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Welcome to Switchboard</h1>
      <p className="mb-6 text-sm text-slate-600">
        Create the admin account. You can invite the rest of your team once you are in.
      </p>
      <CredentialsForm
        fields={fields}
        submitLabel="Create admin account"
        pendingLabel="Creating…"
        action={completeSetupAction}
        redirectTo="/"
      />
    </>
  );
}

"use client";

import { useState, useTransition } from "react";
import { createInvitationAction } from "@/app/(dashboard)/settings/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { OneTimeValue } from "@/components/ui/one-time-value";

/** Creates an invitation link and shows it once; the admin passes it on (no email is sent). */
export function InvitePanel() {
  const [role, setRole] = useState("viewer");
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold text-slate-900">Invite someone</h2>
      <p className="mt-1 text-sm text-slate-600">
        Create a link valid for 7 days and one person. It is shown only once.
      </p>
      <div className="mt-3 flex items-end gap-2">
        <div>
          <label htmlFor="invite-role" className="block text-xs font-medium text-slate-700">
            Role
          </label>
          <select
            id="invite-role"
            className={inputClass}
            value={role}
            onChange={(e) => setRole(e.target.value)}
          >
            <option value="viewer">Viewer — read only</option>
            <option value="approver">Approver — decides approvals</option>
            <option value="admin">Admin — everything</option>
          </select>
        </div>
        <Button
          disabled={isPending}
          onClick={() =>
            startTransition(async () => {
              const result = await createInvitationAction({ role });
              if (!result.ok) return setError(result.error.message);
              setError(null);
              setLink(result.data.url);
            })
          }
        >
          {isPending ? "Creating…" : "Create invitation link"}
        </Button>
      </div>
      {error ? (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      {link ? (
        <OneTimeValue
          value={link}
          what="invitation link"
          label="Invitation link"
          usage="Send it to the person you invite: it lets one person join, within 7 days. Revoke it below if it goes astray."
          onDismiss={() => setLink(null)}
        />
      ) : null}
    </section>
  );
}

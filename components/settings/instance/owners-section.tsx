"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState, useTransition } from "react";
import {
  addInstanceOwnerAction,
  removeInstanceOwnerAction,
} from "@/app/(dashboard)/settings/instance/actions";
import { Button } from "@/components/ui/button";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { Field, TextInput } from "@/components/ui/field";
import { Time } from "@/components/ui/time";
import type { InstanceOwnerDto } from "@/lib/auth/types";
import { SettingsSection } from "./settings-section";

/** The instance owners, naming another, and removing one (the last one stays: the server says so). */
export function OwnersSection({
  owners,
  currentUserId,
}: {
  owners: InstanceOwnerDto[];
  currentUserId: string;
}) {
  const router = useRouter();
  return (
    <SettingsSection
      id="owners"
      title="Owners"
      why="Owners decide what every workspace's servers may run on this machine, so name only people you would give a shell on it."
    >
      <div className="relative overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Instance owners</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2">
                Name
              </th>
              <th scope="col" className="px-4 py-2">
                Email
              </th>
              <th scope="col" className="px-4 py-2">
                Owner since
              </th>
              <th scope="col" className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {owners.map((owner) => {
              const isSelf = owner.userId === currentUserId;
              return (
                <tr key={owner.userId} data-testid={`owner-${owner.email}`}>
                  <td className="px-4 py-2 font-medium text-slate-900">
                    {owner.name}{" "}
                    {isSelf ? <span className="text-xs font-normal text-slate-500">(you)</span> : null}
                  </td>
                  <td className="px-4 py-2 text-slate-600">{owner.email}</td>
                  <td className="px-4 py-2 text-slate-600">
                    <Time iso={owner.since} />
                  </td>
                  <td className="px-4 py-2 text-right">
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove ${owner.name} as an owner`}
                      title={isSelf ? "Stop being an instance owner?" : `Remove ${owner.name} as an owner?`}
                      confirmLabel="Remove owner"
                      pendingLabel="Removing…"
                      onConfirm={confirmAction(
                        () => removeInstanceOwnerAction(owner.userId),
                        () => router.refresh(),
                      )}
                    >
                      {isSelf
                        ? "You can no longer see or change the instance policy; another owner can make you one again."
                        : "They keep their workspaces and roles, but can no longer see or change the instance policy."}
                    </ConfirmButton>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <AddOwnerForm onAdded={() => router.refresh()} />
    </SettingsSection>
  );
}

function AddOwnerForm({ onAdded }: { onAdded: () => void }) {
  const [errors, setErrors] = useState<string[] | undefined>();
  const [added, setAdded] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    startTransition(async () => {
      const result = await addInstanceOwnerAction({ email });
      if (!result.ok) {
        setAdded(null);
        setErrors(result.error.fieldErrors?.email ?? [result.error.message]);
        input.current?.focus();
        return;
      }
      setErrors(undefined);
      setAdded(email);
      if (input.current) input.current.value = "";
      onAdded();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2">
      <div className="w-full max-w-sm">
        <Field
          id="owner-email"
          label="Add an owner by email"
          errors={errors}
          hint="The email of someone who already has a Switchboard account."
        >
          <TextInput
            ref={input}
            id="owner-email"
            name="email"
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            invalid={!!errors}
          />
        </Field>
      </div>
      <Button type="submit" variant="secondary" className="mt-6" disabled={isPending}>
        {isPending ? "Adding…" : "Add owner"}
      </Button>
      <p role="status" className="basis-full text-xs text-emerald-700">
        {added ? `${added} is now an instance owner.` : null}
      </p>
    </form>
  );
}

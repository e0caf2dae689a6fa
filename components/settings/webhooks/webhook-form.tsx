"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { createWebhookAction } from "@/app/(dashboard)/settings/webhooks/actions";
import { FormError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, FieldErrors, inputClass, TextInput } from "@/components/ui/field";
import { OneTimeValue } from "@/components/ui/one-time-value";
import type { FieldErrors as Errors } from "@/lib/errors";

export type EventOption = { value: string; label: string };

/** Adding a webhook: name, URL, format, events. A generic one's signing secret is shown once, here. */
export function WebhookForm({ eventOptions }: { eventOptions: EventOption[] }) {
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string | null } | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      name: String(data.get("name") ?? ""),
      url: String(data.get("url") ?? ""),
      format: String(data.get("format") ?? ""),
      events: data.getAll("events").map(String),
    };
    startTransition(async () => {
      const result = await createWebhookAction(input);
      if (!result.ok) {
        setErrors(result.error.fieldErrors ?? {});
        setMessage(result.error.message);
        return;
      }
      setErrors({});
      setMessage(null);
      setCreated(result.data);
      form.reset();
      router.refresh();
    });
  };

  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold text-slate-900">Add a webhook</h2>
      <p className="mt-1 text-sm text-slate-600">
        Switchboard posts approvals and servers needing attention to Slack (an incoming-webhook URL) or to any
        HTTP receiver as signed JSON. A receiver that fails is retried with backoff; calls and decisions never
        wait for it.
      </p>
      <form onSubmit={submit} noValidate autoComplete="off" className="mt-4 grid gap-4 md:grid-cols-2">
        <Field id="webhook-name" label="Name" errors={errors.name} required>
          <TextInput id="webhook-name" name="name" placeholder="Approvals to #ops" invalid={!!errors.name} />
        </Field>
        <Field
          id="webhook-url"
          label="URL"
          errors={errors.url}
          required
          hint="Checked against the workspace's egress policy now and at every delivery."
        >
          <TextInput
            id="webhook-url"
            name="url"
            type="url"
            placeholder="https://hooks.slack.com/services/…"
            invalid={!!errors.url}
          />
        </Field>
        <Field id="webhook-format" label="Format" errors={errors.format}>
          <select id="webhook-format" name="format" defaultValue="generic" className={inputClass}>
            <option value="generic">Generic JSON, signed (HMAC-SHA256)</option>
            <option value="slack">Slack incoming webhook</option>
          </select>
        </Field>
        <fieldset aria-describedby={errors.events ? "webhook-events-error" : undefined}>
          <legend className="block text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-1 grid grid-cols-2 gap-1">
            {eventOptions.map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  name="events"
                  value={option.value}
                  defaultChecked={option.value.startsWith("approval.")}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {option.label}
              </label>
            ))}
          </div>
          <FieldErrors id="webhook-events-error" errors={errors.events} />
        </fieldset>
        <div className="md:col-span-2">
          <Button type="submit" disabled={isPending}>
            {isPending ? "Adding…" : "Add webhook"}
          </Button>
        </div>
      </form>
      <FormError message={message} fieldErrors={errors} />
      {created?.secret ? (
        <OneTimeValue
          value={created.secret}
          what="signing secret"
          label={`Signing secret of ${created.name}`}
          usage="Verify X-Switchboard-Signature: v1=HMAC-SHA256(secret, timestamp + '.' + body), and reject old timestamps."
          onDismiss={() => setCreated(null)}
        />
      ) : created ? (
        <p role="status" className="mt-3 text-sm text-emerald-700">
          Added {created.name}.
        </p>
      ) : null}
    </section>
  );
}

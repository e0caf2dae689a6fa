"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { updateGatewaySettingsAction } from "@/app/(dashboard)/settings/actions";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { HELD_ELSEWHERE } from "@/lib/gateway/settings/messages";
import type { GatewaySettings } from "@/lib/gateway/types";

type PrincipalChoice = { id: string; name: string };

/**
 * The loopback → principal mapping: off by default, and loud when on, since it lets any process
 * on this machine call tools without a key. Admins choose; everyone else sees the state.
 */
export function LoopbackMappingCard({
  settings,
  principals,
  canManage,
}: {
  settings: GatewaySettings;
  principals: PrincipalChoice[];
  canManage: boolean;
}) {
  const mapped = settings.loopbackPrincipal;
  // Nothing set here and nothing this workspace could set: the notices above say why; a form or a
  // "create a principal first" step would invite a change that cannot apply.
  const cannotTurnOn = !mapped && (!settings.canMapLoopback || settings.isLoopbackHeldElsewhere);
  return (
    <section
      aria-labelledby="loopback-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id="loopback-heading" className="text-sm font-semibold text-slate-900">
          Requests without a key
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          For a single-user local install, or an MCP client that cannot send headers: gateway requests that
          carry no key may act as one principal of this workspace, with its grants. A request that sends a key
          is always judged by that key.
        </p>
      </div>
      <MappingState settings={settings} />
      {settings.loopbackUnavailableReason ? (
        <Alert tone="info" title="Not available on this installation">
          {settings.loopbackUnavailableReason}
        </Alert>
      ) : null}
      {settings.isLoopbackHeldElsewhere && !mapped ? (
        <Alert tone="info" title="Held by another workspace">
          {HELD_ELSEWHERE}
        </Alert>
      ) : null}
      {cannotTurnOn ? null : principals.length === 0 && !mapped ? (
        <div className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
          <p className="font-medium text-slate-900">No principals yet</p>
          <p className="mt-1">The mapping needs a principal to act as: create one, with its grants, first.</p>
          <ButtonLink href="/principals" variant="secondary" className="mt-3">
            Go to Principals
          </ButtonLink>
        </div>
      ) : canManage ? (
        <MappingForm settings={settings} principals={principals} />
      ) : (
        <p className="text-xs text-slate-500">Only an admin of this workspace can change this.</p>
      )}
    </section>
  );
}

function MappingState({ settings }: { settings: GatewaySettings }) {
  const mapped = settings.loopbackPrincipal;
  if (!mapped) {
    return (
      <p data-testid="loopback-mapping-state" className="flex items-center gap-2 text-sm text-slate-700">
        <Badge tone="neutral">Off</Badge> Every gateway request needs a principal&apos;s key.
      </p>
    );
  }
  if (!settings.canMapLoopback) {
    return (
      <p data-testid="loopback-mapping-state" className="flex items-center gap-2 text-sm text-slate-700">
        <Badge tone="slate">Ignored</Badge> Set to act as <strong>{mapped.name}</strong>, but not applied (see
        below): every request needs a key.
      </p>
    );
  }
  return (
    <div
      data-testid="loopback-mapping-state"
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <Badge tone="red">⚠ On</Badge>
      <span>
        Every local process can call as <strong>{mapped.name}</strong> without a key.
      </span>
    </div>
  );
}

function MappingForm({ settings, principals }: { settings: GatewaySettings; principals: PrincipalChoice[] }) {
  const current = settings.loopbackPrincipal?.id ?? "";
  const [choice, setChoice] = useState(current);
  const [errors, setErrors] = useState<string[]>([]);
  const [message, setMessage] = useState<{ tone: "error" | "info"; text: string } | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  // Turning the mapping off is always possible; turning it on only where it can apply.
  const canTurnOn = settings.canMapLoopback && (!settings.isLoopbackHeldElsewhere || current !== "");

  const save = (loopbackPrincipalId: string | null) =>
    startTransition(async () => {
      const result = await updateGatewaySettingsAction({ loopbackPrincipalId });
      setErrors(result.ok ? [] : (result.error.fieldErrors?.loopbackPrincipalId ?? []));
      if (result.ok) {
        setChoice(result.data.loopbackPrincipal?.id ?? "");
        setMessage({
          tone: "info",
          text: result.data.loopbackPrincipal
            ? `Saved. Requests without a key now act as ${result.data.loopbackPrincipal.name}.`
            : "Saved. Every gateway request needs a key again.",
        });
        router.refresh();
      } else {
        setMessage({ tone: "error", text: result.error.message });
      }
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save(choice === "" ? null : choice);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {message && !(message.tone === "error" && errors.length) ? (
        <Alert tone={message.tone}>{message.text}</Alert>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-72">
          <Field id="loopbackPrincipalId" label="Act as" errors={errors}>
            <select
              id="loopbackPrincipalId"
              name="loopbackPrincipalId"
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              disabled={isPending}
              aria-invalid={errors.length > 0 || undefined}
              aria-describedby={errors.length > 0 ? "loopbackPrincipalId-error" : undefined}
              className={inputClass}
            >
              <option value="">Off — require a key</option>
              {principals.map((p) => (
                <option key={p.id} value={p.id} disabled={!canTurnOn}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Button type="submit" disabled={isPending || choice === current}>
          {isPending ? "Saving…" : "Save"}
        </Button>
        {current !== "" ? (
          <Button variant="secondary" disabled={isPending} onClick={() => save(null)}>
            Turn off
          </Button>
        ) : null}
      </div>
    </form>
  );
}

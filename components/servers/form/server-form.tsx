"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { createServerAction, updateServerAction } from "@/app/(dashboard)/servers/actions";
import { serverKeys } from "@/components/servers/server-queries";
import { Alert } from "@/components/ui/alert";
import { Button, ButtonLink } from "@/components/ui/button";
import type { FieldErrors } from "@/lib/errors";
import type { ServerDto } from "@/lib/servers/types";
import { FormSection } from "./form-section";
import { type FormState, initialState, type SetField, toConfig } from "./form-state";
import { HttpFields } from "./http-fields";
import { IdentityFields } from "./identity-fields";
import { LimitsFields } from "./limits-fields";
import { describeRefusal } from "./refusal-banner";
import { StdioFields } from "./stdio-fields";
import { TransportPicker } from "./transport-picker";

/** Add or edit a server: one section per concern, the connection's fields following the transport. */
export function ServerForm({ server }: { server?: ServerDto }) {
  const [state, setState] = useState<FormState>(() => initialState(server));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const queryClient = useQueryClient();
  const set: SetField = (key, value) => setState((s) => ({ ...s, [key]: value }));
  const section = { state, set, errors };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      const config = toConfig(state);
      const result = server
        ? await updateServerAction(server.name, config)
        : await createServerAction(config);
      if (!result.ok) {
        const fieldErrors = result.error.fieldErrors ?? {};
        setErrors(fieldErrors);
        setFormError(describeRefusal(state, result.error.message, fieldErrors));
        return;
      }
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
      // An OAuth server is not usable until someone connects it: its page has the Connect button.
      router.push(
        state.authType === "oauth" && state.transport !== "stdio"
          ? `/servers/${result.data.name}`
          : "/servers",
      );
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-8"
      aria-label={server ? "Edit server" : "Add server"}
    >
      {formError ? <Alert title="The server was not saved">{formError}</Alert> : null}
      <FormSection title="Identity">
        <IdentityFields {...section} isNew={!server} />
      </FormSection>
      <FormSection title="Connection">
        <TransportPicker state={state} set={set} />
        {state.transport === "stdio" ? <StdioFields {...section} /> : <HttpFields {...section} />}
      </FormSection>
      <FormSection title="Behaviour">
        <LimitsFields {...section} />
      </FormSection>
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-6">
        <ButtonLink variant="secondary" href="/servers">
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Saving…" : server ? "Save changes" : "Add server"}
        </Button>
      </div>
    </form>
  );
}

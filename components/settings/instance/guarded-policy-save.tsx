"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/action-result";
import type { FieldErrors } from "@/lib/errors";

type Message = { tone: "error" | "info"; text: string };
type SaveResult = ActionResult<{ disabledServers: string[] }>;
/** Saves the policy; `disableAffected`: the person confirmed that the servers it refuses are disabled. */
type SaveCall = (disableAffected: boolean) => Promise<SaveResult>;

/**
 * Saving a policy that registered servers depend on (the instance policy, a workspace's egress
 * policy). Like usePolicySave (../policy-form.tsx), plus the refusal a narrower policy meets: the
 * servers it would refuse are listed, and the person may save again disabling them.
 */
export function useGuardedPolicySave(texts: { saved: string; marked: string }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message | null>(null);
  const [affected, setAffected] = useState<string[] | null>(null);
  const [isPending, startTransition] = useTransition();
  const lastCall = useRef<{ call: SaveCall; isShownBeside: (field: string) => boolean } | null>(null);
  const router = useRouter();

  const run = (disableAffected: boolean) => {
    const last = lastCall.current;
    if (!last) return;
    startTransition(async () => {
      const result = await last.call(disableAffected);
      if (result.ok) {
        setErrors({});
        setAffected(null);
        const disabled = result.data.disabledServers;
        setMessage({
          tone: "info",
          text:
            disabled.length === 0
              ? texts.saved
              : `${texts.saved} Disabled ${disabled.length === 1 ? "1 server" : `${disabled.length} servers`} the policy no longer allows: ${disabled.join(", ")}. Each one's page says why.`,
        });
        router.refresh();
        return;
      }
      const { affectedServers, ...fieldErrors } = result.error.fieldErrors ?? {};
      setErrors(fieldErrors);
      if (result.error.code === "conflict" && affectedServers?.length) {
        setAffected(affectedServers);
        setMessage(null);
        return;
      }
      setAffected(null);
      const besideFields = Object.keys(fieldErrors).some(last.isShownBeside);
      setMessage({ tone: "error", text: besideFields ? texts.marked : result.error.message });
    });
  };

  return {
    errors,
    message,
    affected,
    isPending,
    /** Saves; `isShownBeside` tells which error keys a field of the form shows. */
    save: (call: SaveCall, isShownBeside: (field: string) => boolean) => {
      lastCall.current = { call, isShownBeside };
      run(false);
    },
    /** Saves what was last sent again, disabling the servers it refuses. */
    saveDisablingAffected: () => run(true),
    /** Back to editing: nothing is saved, nothing disabled. */
    dismissAffected: () => setAffected(null),
  };
}

/**
 * The servers a policy would refuse, one line each ("name (in Workspace): reason"), and the two
 * ways on. Takes focus when it appears: it replaces the answer the person was waiting for.
 */
export function AffectedServers(props: {
  servers: string[];
  isPending: boolean;
  onDisable: () => void;
  onDismiss: () => void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => panel.current?.focus(), []);
  const count = props.servers.length;
  return (
    <div
      ref={panel}
      tabIndex={-1}
      role="alert"
      aria-labelledby={titleId}
      data-testid="affected-servers"
      className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
    >
      <p id={titleId} className="font-medium">
        Nothing was saved: this policy would refuse{" "}
        {count === 1 ? "a server that is registered" : `${count} servers that are registered`}.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-xs">
        {props.servers.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="mt-2 text-xs">
        Change the policy so they stay allowed, or save it anyway: they are disabled, each with a note saying
        why, and stay disabled until someone changes them or the policy.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" onClick={props.onDisable} disabled={props.isPending}>
          {props.isPending ? "Saving…" : "Save and disable these servers"}
        </Button>
        <Button variant="secondary" onClick={props.onDismiss} disabled={props.isPending}>
          Keep editing
        </Button>
      </div>
    </div>
  );
}

/** The message a save left, in the place the form shows it. */
export function SaveMessage({ message }: { message: Message | null }) {
  return message ? <Alert tone={message.tone}>{message.text}</Alert> : null;
}

/**
 * The errors of one policy field; an entry's error quotes the entry ("http.denyHosts.2" → "x y": …),
 * since a person knows an entry by its text, not its index. `entries`: what was last sent there.
 */
export function errorsAt(errors: FieldErrors, path: string, entries?: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .flatMap(([key, messages]) => {
      const index = /^\.(\d+)$/.exec(key.slice(path.length))?.[1];
      const entry = index === undefined ? undefined : entries?.[Number(index)];
      return entry === undefined ? messages : messages.map((m) => `"${entry}": ${m}`);
    });
}

"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { updateGatewayNameBudgetAction } from "@/app/(dashboard)/settings/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

/** Claude Code names a tool `mcp__switchboard__<name>`; model APIs refuse tool names over 64. */
const CLAUDE_PREFIX = "mcp__switchboard__";
const MIN = 32;
const MAX = 64;

/**
 * The gateway name budget: the longest tool name /mcp hands out. Longer names are cut and end in a
 * short hash. Saving renames the workspace's tools at once (grants of exact names follow), so the
 * form says so before the admin commits to it. Everyone sees the value; admins change it.
 */
export function GatewayNameBudgetCard({ budget, canManage }: { budget: number; canManage: boolean }) {
  return (
    <section
      aria-labelledby="name-budget-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id="name-budget-heading" className="text-sm font-semibold text-slate-900">
          Tool name length
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Claude Code adds <code className="font-mono">{CLAUDE_PREFIX}</code> ({CLAUDE_PREFIX.length}{" "}
          characters) to every tool name, and model APIs refuse names over 64 — so gateway names longer than
          this budget are shortened, ending in a short hash. Names use only letters, digits,{" "}
          <code className="font-mono">_</code> and <code className="font-mono">-</code>; a tool&apos;s own
          name stays visible as its title.
        </p>
      </div>
      {canManage ? (
        <BudgetForm budget={budget} />
      ) : (
        <p className="text-sm text-slate-700" data-testid="name-budget-value">
          At most <strong>{budget}</strong> characters.{" "}
          <span className="text-xs text-slate-500">Only an admin of this workspace can change this.</span>
        </p>
      )}
    </section>
  );
}

function BudgetForm({ budget }: { budget: number }) {
  const [value, setValue] = useState(String(budget));
  const [errors, setErrors] = useState<string[]>([]);
  const [message, setMessage] = useState<{ tone: "error" | "info"; text: string } | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Sent as typed (a number when it reads as one): the server says what is wrong with anything else.
    const typed = value.trim();
    const gatewayNameBudget = typed !== "" && Number.isFinite(Number(typed)) ? Number(typed) : typed;
    startTransition(async () => {
      const result = await updateGatewayNameBudgetAction({ gatewayNameBudget });
      if (result.ok) {
        setErrors([]);
        setValue(String(result.data.gatewayNameBudget));
        setMessage({
          tone: "info",
          text: `Saved. Gateway names are now at most ${result.data.gatewayNameBudget} characters; tools that did not fit were renamed.`,
        });
        router.refresh();
      } else {
        setErrors(result.error.fieldErrors?.gatewayNameBudget ?? []);
        setMessage({ tone: "error", text: result.error.message });
      }
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {message && !(message.tone === "error" && errors.length) ? (
        <Alert tone={message.tone}>{message.text}</Alert>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-72">
          <Field
            id="gatewayNameBudget"
            label="Longest gateway name (characters)"
            hint={`${MIN}–${MAX}; 46 fits Claude Code's prefix within 64.`}
            errors={errors}
          >
            <input
              id="gatewayNameBudget"
              name="gatewayNameBudget"
              type="number"
              inputMode="numeric"
              min={MIN}
              max={MAX}
              step={1}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              disabled={isPending}
              aria-invalid={errors.length > 0 || undefined}
              aria-describedby={errors.length > 0 ? "gatewayNameBudget-error" : "gatewayNameBudget-hint"}
              className={inputClass}
            />
          </Field>
        </div>
        <Button type="submit" disabled={isPending || value.trim() === String(budget)}>
          {/* Not just "Save": the loopback mapping's form on the same page has that one. */}
          {isPending ? "Saving…" : "Save budget"}
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        Saving renames the tools that no longer fit; grants of their exact names follow.
      </p>
    </form>
  );
}

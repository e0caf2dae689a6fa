"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { replaceGrantsAction } from "@/app/(dashboard)/principals/actions";
import { type GovernedToolDto, toolsListQuery } from "@/components/tools/tool-queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { QueryFallback } from "@/components/ui/query-fallback";
import { grantMatches, isValidGrantPattern } from "@/lib/policy/grant-patterns";
import { grantSuggestions } from "./grant-patterns";
import { GrantPicker } from "./grant-picker";
import { GrantRow } from "./grant-row";
import { type PrincipalDto, principalKeys } from "./principal-queries";

/** Grants: each add or remove saves the whole set at once (the API replaces it as a set). */
export function GrantsEditor({ principal, canManage }: { principal: PrincipalDto; canManage: boolean }) {
  const { data: tools, error } = useQuery(toolsListQuery());
  const [draft, setDraft] = useState("");
  const queryClient = useQueryClient();
  const listId = useId();
  const save = useMutation({
    mutationFn: async (patterns: string[]) => {
      const result = await replaceGrantsAction(principal.id, { patterns });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: (grants) => {
      queryClient.setQueryData<PrincipalDto>(
        principalKeys.detail(principal.id),
        (p) => p && { ...p, grants },
      );
      void queryClient.invalidateQueries({ queryKey: principalKeys.all });
    },
  });

  if (!tools) return <QueryFallback error={error} what="the tool catalog" />;
  const covered = tools.filter((tool) => principal.grants.some((p) => grantMatches(p, tool.gatewayName)));

  const add = (event: FormEvent) => {
    event.preventDefault();
    const pattern = draft.trim();
    if (!pattern || save.isPending) return;
    save.mutate([...principal.grants.filter((p) => p !== pattern), pattern], {
      // Only if it still holds what was saved: the admin may have typed the next one meanwhile.
      onSuccess: () => setDraft((current) => (current.trim() === pattern ? "" : current)),
    });
  };

  return (
    <div>
      <p className="mb-3 text-sm text-slate-600">
        <strong>Deny by default:</strong> {principal.name} may call only tools matched by a pattern below
        {principal.grants.length === 0 ? " — with none, it can call nothing." : "."} Covered now:{" "}
        <span data-testid="grants-coverage">
          {covered.length} of {tools.length} tools
        </span>
        . Calls still go through the approval rules.
      </p>
      <p className="mb-3 text-sm text-slate-600" data-testid="grants-resources-help">
        <strong>Resources and prompts</strong> of a server (resources/read, prompts/get) need a grant of the
        whole server, <code className="font-mono">server__*</code>, or <code className="font-mono">*</code>.
        Grants of single tools do not cover them. Every read and prompt get is in the call history.
      </p>
      {principal.grants.length > 0 ? (
        <ul className="mb-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
          {principal.grants.map((pattern) => (
            <GrantRow
              key={pattern}
              pattern={pattern}
              tools={tools}
              canManage={canManage}
              isBusy={save.isPending}
              onRemove={() => save.mutate(principal.grants.filter((p) => p !== pattern))}
            />
          ))}
        </ul>
      ) : null}
      {canManage ? (
        <GrantPicker
          tools={tools}
          granted={principal.grants}
          isBusy={save.isPending}
          onAdd={(patterns, done) =>
            save.mutate([...principal.grants.filter((p) => !patterns.includes(p)), ...patterns], {
              onSuccess: done,
            })
          }
        />
      ) : null}
      {canManage ? (
        <form onSubmit={add} className="flex flex-wrap items-center gap-2">
          <span className="w-full text-xs text-slate-600">
            Or type a pattern — a wildcard such as <code className="font-mono">server__*</code> also covers
            tools the server adds later:
          </span>
          <input
            aria-label="Grant pattern"
            list={listId}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="server__tool, server__* or *"
            autoComplete="off"
            className={`${inputClass} max-w-sm font-mono`}
          />
          <datalist id={listId}>
            {grantSuggestions(tools).map((s) => (
              <option key={s.value} value={s.value} label={s.label} />
            ))}
          </datalist>
          <Button type="submit" disabled={save.isPending || !draft.trim()}>
            {save.isPending ? "Saving…" : "Add grant"}
          </Button>
          {draft.trim() ? <DraftCount draft={draft.trim()} tools={tools} /> : null}
        </form>
      ) : null}
      {save.error ? (
        <div className="mt-3">
          <Alert title="The grants were not saved">{save.error.message}</Alert>
        </div>
      ) : null}
    </div>
  );
}

/** The typed pattern's live count, or why it would be refused — before the admin presses Add. */
function DraftCount({ draft, tools }: { draft: string; tools: GovernedToolDto[] }) {
  if (!isValidGrantPattern(draft)) {
    return (
      <span role="status" className="text-xs text-amber-800">
        not a pattern yet: <code className="font-mono">*</code>, <code className="font-mono">server__*</code>{" "}
        or <code className="font-mono">server__tool</code>
      </span>
    );
  }
  const count = tools.filter((tool) => grantMatches(draft, tool.gatewayName)).length;
  return (
    <span role="status" data-testid="draft-count" className="text-xs text-slate-500">
      would match {count} {count === 1 ? "tool" : "tools"}
    </span>
  );
}

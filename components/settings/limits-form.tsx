"use client";

import { type FormEvent, useState } from "react";
import { updateLimitsAction } from "@/app/(dashboard)/settings/limits/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextInput } from "@/components/ui/field";
import type { LimitsPolicy } from "@/lib/limits/types";
import { PolicyFormFooter, usePolicySave } from "./policy-form";

type Field = "callsPerMinute" | "concurrentCalls" | "pendingApprovals";
type Kind = "principal" | "server";
type Row = { kind: Kind; name: string; values: Partial<Record<Field, string>> };

const columns: Array<{ field: Field; label: string; hint: string }> = [
  { field: "callsPerMinute", label: "Calls per minute", hint: "1–100000" },
  { field: "concurrentCalls", label: "In flight", hint: "1–1000" },
  { field: "pendingApprovals", label: "Waiting for approval", hint: "1–10000, principals only" },
];

const shown = (value: number | null | undefined) => (value == null ? "" : String(value));
/** A blank default is unlimited; a blank override inherits; "unlimited" lifts it. Anything else goes as typed, for the server to judge. */
const parsed = (text: string) => {
  const t = text.trim();
  if (t.toLowerCase() === "unlimited") return null;
  return /^-?\d+(\.\d+)?(e\d+)?$/i.test(t) ? Number(t) : t;
};

function rowsOf(policy: LimitsPolicy): Row[] {
  const rows: Row[] = [];
  for (const [name, o] of Object.entries(policy.principals))
    rows.push({ kind: "principal", name, values: { ...mapValues(o) } });
  for (const [name, o] of Object.entries(policy.servers))
    rows.push({ kind: "server", name, values: { ...mapValues(o) } });
  return rows;
}
function mapValues(o: Partial<Record<Field, number | null>>): Partial<Record<Field, string>> {
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, v === null ? "unlimited" : String(v)]),
  ) as Partial<Record<Field, string>>;
}

/**
 * The workspace's call limits: a default for every principal and every server, then overrides by
 * name. Blank is unlimited in a default and "as the default" in an override. Read-only for non-admins.
 */
export function LimitsForm(props: {
  policy: LimitsPolicy;
  principalNames: string[];
  serverNames: string[];
  canManage: boolean;
}) {
  const { errors, message, isPending, save } = usePolicySave({
    saved: "Saved. Calls from now on are held to these limits.",
    marked: "Nothing was saved: correct the fields marked below.",
  });
  const [defaults, setDefaults] = useState<Record<Kind, Partial<Record<Field, string>>>>({
    principal: {
      callsPerMinute: shown(props.policy.principal.callsPerMinute),
      concurrentCalls: shown(props.policy.principal.concurrentCalls),
      pendingApprovals: shown(props.policy.principal.pendingApprovals),
    },
    server: {
      callsPerMinute: shown(props.policy.server.callsPerMinute),
      concurrentCalls: shown(props.policy.server.concurrentCalls),
    },
  });
  const [rows, setRows] = useState<Row[]>(() => rowsOf(props.policy));
  const taken = (kind: Kind) => new Set(rows.filter((r) => r.kind === kind).map((r) => r.name));
  const free = (kind: Kind) =>
    (kind === "principal" ? props.principalNames : props.serverNames).filter((n) => !taken(kind).has(n));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = (values: Partial<Record<Field, string>>, blankIs: "null" | "omit") =>
      Object.fromEntries(
        Object.entries(values)
          .filter(([, v]) => blankIs === "null" || (v ?? "").trim() !== "")
          .map(([k, v]) => [k, (v ?? "").trim() === "" ? null : parsed(v ?? "")]),
      );
    const overrides = (kind: Kind) =>
      Object.fromEntries(rows.filter((r) => r.kind === kind).map((r) => [r.name, fields(r.values, "omit")]));
    const input = {
      principal: fields(defaults.principal, "null"),
      server: fields(defaults.server, "null"),
      principals: overrides("principal"),
      servers: overrides("server"),
    };
    save(
      () => updateLimitsAction(input),
      () => true,
    );
  };

  const cell = (key: string, value: string, onChange: (v: string) => void, label: string, hint: string) => (
    <td key={key} className="w-36 px-2 py-2 align-top">
      <TextInput
        aria-label={label}
        placeholder={hint}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        invalid={!!errors[key]}
      />
      {errors[key] ? <p className="mt-1 max-w-48 text-xs text-red-700">{errors[key].join(" ")}</p> : null}
    </td>
  );
  const addRow = (kind: Kind) => {
    const name = free(kind)[0];
    if (name !== undefined) setRows((r) => [...r, { kind, name, values: {} }]);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <p className="text-sm text-slate-600">
        A call over a limit is refused at once — before it waits for approval or reaches its server — with
        when to try again, and shows as <em>Rate limited</em> on the Calls page. Calls per minute refill
        evenly over the minute. Blank is unlimited; in an override, blank keeps the default and{" "}
        <code>unlimited</code> lifts it.
      </p>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <fieldset disabled={!props.canManage || isPending}>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="px-2 py-2">Applies to</th>
              {columns.map((c) => (
                <th key={c.field} className="px-2 py-2">
                  {c.label}
                </th>
              ))}
              <th className="px-2 py-2">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {(["principal", "server"] as const).map((kind) => (
              <tr key={kind} className="bg-slate-50">
                <td className="px-2 py-2 font-medium text-slate-800">
                  {kind === "principal" ? "Every principal" : "Every server"}
                </td>
                {columns.map((c) =>
                  kind === "server" && c.field === "pendingApprovals" ? (
                    <td key={c.field} className="px-2 py-2 text-slate-400">
                      —
                    </td>
                  ) : (
                    cell(
                      `${kind}.${c.field}`,
                      defaults[kind][c.field] ?? "",
                      (v) => setDefaults((d) => ({ ...d, [kind]: { ...d[kind], [c.field]: v } })),
                      `${c.label} for every ${kind}`,
                      c.hint,
                    )
                  ),
                )}
                <td />
              </tr>
            ))}
            {rows.map((row, i) => (
              <tr key={`${row.kind}:${row.name}`}>
                <td className="px-2 py-2">
                  <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                    {row.kind}
                  </span>
                  <select
                    aria-label={`Which ${row.kind}`}
                    value={row.name}
                    onChange={(e) =>
                      setRows((r) => r.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                    }
                    className="rounded border border-slate-300 px-2 py-1"
                  >
                    {[row.name, ...free(row.kind)].map((n) => (
                      <option key={n}>{n}</option>
                    ))}
                  </select>
                </td>
                {columns.map((c) =>
                  row.kind === "server" && c.field === "pendingApprovals" ? (
                    <td key={c.field} className="px-2 py-2 text-slate-400">
                      —
                    </td>
                  ) : (
                    cell(
                      `${row.kind}s.${row.name}.${c.field}`,
                      row.values[c.field] ?? "",
                      (v) =>
                        setRows((r) =>
                          r.map((x, j) => (j === i ? { ...x, values: { ...x.values, [c.field]: v } } : x)),
                        ),
                      `${c.label} for ${row.name}`,
                      "as default",
                    )
                  ),
                )}
                <td className="px-2 py-2">
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? (
          <p className="px-2 py-3 text-sm text-slate-500">No overrides: the defaults apply to all.</p>
        ) : null}
        {props.canManage ? (
          <div className="mt-3 flex gap-2">
            <Button
              type="button"
              variant="secondary"
              disabled={free("principal").length === 0}
              onClick={() => addRow("principal")}
            >
              Add a principal override
            </Button>
            <Button
              type="button"
              variant="secondary"
              disabled={free("server").length === 0}
              onClick={() => addRow("server")}
            >
              Add a server override
            </Button>
          </div>
        ) : null}
      </fieldset>
      <PolicyFormFooter
        canManage={props.canManage}
        isPending={isPending}
        label="Save limits"
        readOnlyNote="Only an admin of this workspace can change the limits."
      />
    </form>
  );
}

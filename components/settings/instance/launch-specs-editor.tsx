"use client";

import { Button } from "@/components/ui/button";
import { FieldErrors } from "@/components/ui/field";
import type { FieldErrors as Errors } from "@/lib/errors";
import type { LaunchSpec } from "@/lib/policy/launch-spec-pattern";
import { AddLaunchSpec } from "./add-launch-spec";
import { SettingsSection } from "./settings-section";
import { AudienceBadge, PlaceholderLegend, SpecPattern } from "./spec-pattern";

/** A launch spec in the editor: `key` follows it through removals, so errors stay on their row. */
export type SpecRow = LaunchSpec & { key: string };

const SPECS = "stdio.launchSpecs";

/** "stdio.launchSpecs.2.args.1" → "argument 2", "stdio.launchSpecs.2.why" → "why". */
const partOf = (rest: string) => {
  const argument = /^args\.(\d+)$/.exec(rest);
  if (argument) return `argument ${Number(argument[1]) + 1}`;
  return rest === "args" ? "arguments" : rest;
};

export const sameSpec = (a: LaunchSpec, b: LaunchSpec) =>
  a.program === b.program &&
  a.rest === b.rest &&
  a.audience === b.audience &&
  a.why === b.why &&
  a.args.length === b.args.length &&
  a.args.every((arg, i) => arg === b.args[i]);

/**
 * The launch specs of the instance policy: which programs stdio servers may start, with which
 * arguments, for whom. Removing and adding change the list in the form; Save sends it.
 */
export function LaunchSpecsEditor({
  specs,
  saved,
  onChange,
  errors,
  sentKeys,
}: {
  specs: SpecRow[];
  /** The specs as stored, to mark rows not saved yet. */
  saved: LaunchSpec[];
  onChange: (specs: SpecRow[]) => void;
  errors: Errors;
  /** The keys of the specs in the order they were last sent: errors name a spec by that index. */
  sentKeys: string[];
}) {
  const rowErrors = (key: string) => {
    const index = sentKeys.indexOf(key);
    if (index < 0) return [];
    const prefix = `${SPECS}.${index}`;
    return Object.entries(errors)
      .filter(([field]) => field === prefix || field.startsWith(`${prefix}.`))
      .flatMap(([field, messages]) => {
        const part = field.slice(prefix.length + 1);
        return messages.map((m) => (part ? `${partOf(part)}: ${m}` : m));
      });
  };
  // Errors about the list as a whole ("At most 200 launch specs.").
  const listErrors = errors[SPECS] ?? [];

  return (
    <SettingsSection
      id="launch-specs"
      title="Launch specs"
      why="A stdio server may only start a program with arguments that match one of these; everything else is refused at registration and at every start."
    >
      <div className="relative overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full min-w-[48rem] divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Launch specs</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="w-28 px-4 py-2">
                Program
              </th>
              <th scope="col" className="px-4 py-2">
                Arguments
              </th>
              <th scope="col" className="w-36 px-4 py-2">
                Who may register
              </th>
              <th scope="col" className="w-[30%] px-4 py-2">
                Why
              </th>
              <th scope="col" className="w-24 px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {specs.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-center text-sm text-slate-600">
                  No launch specs: no stdio server can start. Add one below.
                </td>
              </tr>
            ) : null}
            {specs.map((spec) => {
              const messages = rowErrors(spec.key);
              const isUnsaved = !saved.some((s) => sameSpec(s, spec));
              return (
                <tr
                  key={spec.key}
                  data-testid="launch-spec"
                  className={messages.length > 0 ? "bg-red-50/50" : undefined}
                >
                  <td className="px-4 py-2 align-top font-mono text-xs font-semibold text-slate-900">
                    <span className="break-all">{spec.program}</span>
                    {isUnsaved ? (
                      <span className="mt-1 block font-sans text-xs font-normal text-amber-700">
                        not saved yet
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-2 align-top">
                    <SpecPattern spec={spec} argsOnly />
                    <FieldErrors errors={messages} />
                  </td>
                  <td className="px-4 py-2 align-top">
                    <AudienceBadge audience={spec.audience} />
                  </td>
                  <td className="px-4 py-2 align-top text-xs text-slate-600">{spec.why || "—"}</td>
                  <td className="px-4 py-2 text-right align-top">
                    <Button
                      variant="ghost-danger"
                      aria-label={`Remove the launch spec ${[spec.program, ...spec.args, ...(spec.rest ? ["…"] : [])].join(" ")}`}
                      onClick={() => onChange(specs.filter((s) => s.key !== spec.key))}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <FieldErrors errors={listErrors} />
      <PlaceholderLegend />
      <AddLaunchSpec
        onAdd={(spec) => {
          if (specs.some((s) => sameSpec(s, spec))) return "This launch spec is already in the list.";
          onChange([...specs, { ...spec, key: crypto.randomUUID() }]);
          return null;
        }}
      />
    </SettingsSection>
  );
}

import { Field, TextInput } from "@/components/ui/field";
import type { SectionProps } from "./form-state";

type NumberField = "connectTimeoutMs" | "callTimeoutMs" | "healthIntervalSeconds";

const numberFields: { id: NumberField; label: string }[] = [
  { id: "connectTimeoutMs", label: "Connect timeout (ms)" },
  { id: "callTimeoutMs", label: "Call timeout (ms)" },
  { id: "healthIntervalSeconds", label: "Health check every (s)" },
];

/** Timeouts, the health-check interval, whether Switchboard connects at all, and whether reads wait. */
export function LimitsFields({ state, set, errors }: SectionProps) {
  return (
    <>
      {numberFields.map(({ id, label }) => (
        <Field key={id} id={id} label={label} errors={errors[id]}>
          <TextInput
            id={id}
            inputMode="numeric"
            value={state[id]}
            invalid={!!errors[id]}
            onChange={(e) => set(id, e.target.value)}
          />
        </Field>
      ))}
      <label className="flex items-center gap-2 self-end pb-1.5 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={state.enabled}
          onChange={(e) => set("enabled", e.target.checked)}
          className="h-4 w-4 rounded border-slate-300"
        />
        Enabled — Switchboard connects to it
      </label>
      <label className="flex items-center gap-2 self-end pb-1.5 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={state.resourceReadsNeedApproval}
          onChange={(e) => set("resourceReadsNeedApproval", e.target.checked)}
          className="h-4 w-4 rounded border-slate-300"
        />
        Resource reads need approval — each resources/read waits for an approver
      </label>
    </>
  );
}

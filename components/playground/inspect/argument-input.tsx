"use client";

import { Field, TextInput } from "@/components/ui/field";
import { type CompletionRef, useCompletion } from "./use-completion";

type Props = {
  id: string;
  name: string;
  description?: string | null;
  required?: boolean;
  value: string;
  errors?: string[];
  onChange: (value: string) => void;
  /** what to ask the server for suggestions about; values of the other arguments narrow them */
  completion: { serverId: string; ref: CompletionRef; context: Record<string, string>; isEnabled: boolean };
};

/**
 * One prompt argument or template variable: a text field, and under it the server's suggestions
 * for what is typed (completion/complete) as buttons — Tab reaches them, Enter or a click fills the
 * field. Suggestions are untrusted text from the server: shown as text, capped in number.
 */
export function ArgumentInput({
  id,
  name,
  description,
  required,
  value,
  errors,
  onChange,
  completion,
}: Props) {
  const { values, hasMore } = useCompletion({ ...completion, name, value });
  const suggestions = values.filter((suggestion) => suggestion !== value).slice(0, 12);
  return (
    <Field id={id} label={name} hint={description ?? undefined} errors={errors} required={required}>
      <TextInput
        id={id}
        name={name}
        value={value}
        autoComplete="off"
        invalid={!!errors?.length}
        aria-required={required || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {suggestions.length > 0 ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
          <span id={`${id}-suggestions`} className="text-xs text-slate-500">
            Suggested:
          </span>
          <ul aria-labelledby={`${id}-suggestions`} className="flex flex-wrap gap-1.5">
            {suggestions.map((suggestion) => (
              <li key={suggestion}>
                <button
                  type="button"
                  aria-label={`Use ${suggestion} for ${name}`}
                  onClick={() => onChange(suggestion)}
                  className="max-w-64 truncate rounded-full bg-indigo-50 px-2 py-0.5 font-mono text-xs text-indigo-800 ring-1 ring-indigo-200 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-500"
                >
                  {suggestion}
                </button>
              </li>
            ))}
          </ul>
          {hasMore || values.length > suggestions.length + 1 ? (
            <span className="text-xs text-slate-500">type to narrow</span>
          ) : null}
        </div>
      ) : null}
    </Field>
  );
}

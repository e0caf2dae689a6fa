import type { ComponentProps, ReactNode, TextareaHTMLAttributes } from "react";

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500 aria-invalid:border-red-400 aria-invalid:ring-red-400";

/** A labelled control with its hint and its errors, linked for screen readers. */
export function Field({
  id,
  label,
  hint,
  errors,
  required,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span aria-hidden className="ml-0.5 text-red-600">
            *
          </span>
        ) : null}
      </label>
      <div className="mt-1">{children}</div>
      {hint && !errors?.length ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-700" data-testid="field-error">
      {errors.join(" ")}
    </p>
  );
}

export function TextInput({ invalid, ...props }: ComponentProps<"input"> & { invalid?: boolean }) {
  return (
    <input
      className={inputClass}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy(props.id, invalid)}
      {...props}
    />
  );
}

export function TextArea({
  invalid,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }) {
  return (
    <textarea
      className={`${inputClass} font-mono`}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy(props.id, invalid)}
      {...props}
    />
  );
}

/** A list edited as text, one entry per line; the form reads it by `id` as its name. */
export function LinesField(props: {
  id: string;
  label: string;
  hint: ReactNode;
  values: string[];
  errors: string[];
  rows?: number;
  placeholder?: string;
}) {
  return (
    <Field id={props.id} label={props.label} errors={props.errors} hint={props.hint}>
      <TextArea
        id={props.id}
        name={props.id}
        rows={props.rows ?? 4}
        invalid={props.errors.length > 0}
        defaultValue={props.values.join("\n")}
        placeholder={props.placeholder}
      />
    </Field>
  );
}

/** The error replaces the hint beside a field; either describes it. No id, nothing to point at. */
const describedBy = (id: string | undefined, invalid: boolean | undefined) =>
  id ? `${id}-${invalid ? "error" : "hint"}` : undefined;

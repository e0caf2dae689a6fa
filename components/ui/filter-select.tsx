import { inputClass } from "@/components/ui/field";

/**
 * One filter of a list (a server, a status…): "any" first, then the options. A value from the URL
 * that is not (or no longer) among the options stays selectable, so a shared link shows its filter.
 */
export function FilterSelect({
  label,
  value,
  options,
  anyLabel,
  onChange,
  className = "min-w-40",
}: {
  label: string;
  value: string | undefined;
  /** [value, label] pairs */
  options: [string, string][];
  anyLabel: string;
  onChange: (value: string) => void;
  /** width classes of the select */
  className?: string;
}) {
  const all: [string, string][] =
    value && !options.some(([v]) => v === value) ? [...options, [value, value]] : options;
  return (
    <label className="block text-xs font-medium text-slate-600">
      {label}
      <select
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} mt-1 ${className}`}
      >
        <option value="">{anyLabel}</option>
        {all.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  );
}

import { inputClass } from "@/components/ui/field";
import type { Primitive, PrimitiveKind } from "./form-model";

type Props = {
  id: string;
  type: PrimitiveKind;
  value: unknown;
  isRequired: boolean;
  isInvalid: boolean;
  label?: string;
  onChange: (value: unknown) => void;
};

const aria = (props: Props) => ({
  id: props.id,
  "aria-label": props.label,
  "aria-invalid": props.isInvalid || undefined,
  "aria-describedby": props.isInvalid ? `${props.id}-error` : undefined,
});

/** One control for a string, number, boolean or enum. Empty means "not sent" (undefined). */
export function PrimitiveInput(props: Props) {
  const { type, value, onChange } = props;
  switch (type.kind) {
    case "string": {
      const text = typeof value === "string" ? value : "";
      const change = (next: string) => onChange(next === "" ? undefined : next);
      return type.isMultiline ? (
        <textarea
          {...aria(props)}
          rows={2}
          value={text}
          onChange={(e) => change(e.target.value)}
          className={inputClass}
        />
      ) : (
        <input
          {...aria(props)}
          type="text"
          value={text}
          placeholder={type.format ?? undefined}
          onChange={(e) => change(e.target.value)}
          className={inputClass}
        />
      );
    }
    case "number":
      return (
        <input
          {...aria(props)}
          type="number"
          step={type.isInteger ? 1 : "any"}
          min={type.min ?? undefined}
          max={type.max ?? undefined}
          value={typeof value === "number" ? value : ""}
          onChange={(e) =>
            onChange(Number.isNaN(e.target.valueAsNumber) ? undefined : e.target.valueAsNumber)
          }
          className={`${inputClass} max-w-48`}
        />
      );
    case "boolean":
      // A required flag is a checkbox; an optional one may also be left out, which a checkbox cannot say.
      return props.isRequired ? (
        <input
          {...aria(props)}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      ) : (
        <OptionSelect {...props} options={[true, false]} />
      );
    case "enum":
      return <OptionSelect {...props} options={type.options} />;
  }
}

function OptionSelect(props: Props & { options: Primitive[] }) {
  const index = props.options.indexOf(props.value as Primitive);
  return (
    <select
      {...aria(props)}
      value={index === -1 ? "" : String(index)}
      onChange={(e) =>
        props.onChange(e.target.value === "" ? undefined : props.options[Number(e.target.value)])
      }
      className={`${inputClass} max-w-xs`}
    >
      <option value="">{props.isRequired ? "— choose —" : "— not set —"}</option>
      {props.options.map((option, i) => (
        <option key={JSON.stringify(option)} value={String(i)}>
          {typeof option === "string" ? option : JSON.stringify(option)}
        </option>
      ))}
    </select>
  );
}

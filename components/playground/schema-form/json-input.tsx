"use client";

import { useState } from "react";
import { inputClass } from "@/components/ui/field";
import { formatJson, InvalidJson } from "./form-values";

/**
 * Free JSON for what the form cannot express. The text is kept as typed (no reformatting under the
 * cursor); the value above it is the parsed JSON, or an InvalidJson while it does not parse. A
 * parent that replaces the value from outside remounts this with a new `key`.
 */
export function JsonInput(props: {
  id: string;
  value: unknown;
  isInvalid: boolean;
  rows?: number;
  label?: string;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(() =>
    props.value instanceof InvalidJson
      ? props.value.text
      : props.value === undefined
        ? ""
        : formatJson(props.value),
  );
  const change = (next: string) => {
    setText(next);
    if (next.trim() === "") return props.onChange(undefined);
    try {
      props.onChange(JSON.parse(next));
    } catch {
      props.onChange(new InvalidJson(next));
    }
  };
  return (
    <textarea
      id={props.id}
      aria-label={props.label}
      aria-invalid={props.isInvalid || undefined}
      aria-describedby={props.isInvalid ? `${props.id}-error` : undefined}
      rows={props.rows ?? 3}
      spellCheck={false}
      value={text}
      onChange={(event) => change(event.target.value)}
      className={`${inputClass} font-mono text-xs`}
    />
  );
}

import { Field, inputClass, TextArea, TextInput } from "@/components/ui/field";
import type { FieldErrors } from "@/lib/errors";
import type { SectionProps } from "./form-state";
import { KeyValueEditor } from "./key-value-editor";

/** One argument's error ("args.2") belongs beside the arguments, saying which one. */
function argumentErrors(errors: FieldErrors): string[] {
  return Object.entries(errors)
    .filter(([field]) => field === "args" || field.startsWith("args."))
    .flatMap(([field, messages]) => {
      const line = /^args\.(\d+)$/.exec(field)?.[1];
      return line === undefined ? messages : messages.map((m) => `Argument ${Number(line) + 1}: ${m}`);
    });
}

/** A local command: what to run, where, with which arguments and environment. */
export function StdioFields({ state, set, errors }: SectionProps) {
  const argErrors = argumentErrors(errors);
  return (
    <>
      <Field
        id="command"
        label="Command"
        required
        errors={errors.command}
        hint="Run directly, never through a shell."
      >
        <TextInput
          id="command"
          value={state.command}
          invalid={!!errors.command}
          onChange={(e) => set("command", e.target.value)}
          placeholder="npx"
          className={`${inputClass} font-mono`}
        />
      </Field>
      <Field id="cwd" label="Working directory" errors={errors.cwd}>
        <TextInput
          id="cwd"
          value={state.cwd}
          invalid={!!errors.cwd}
          onChange={(e) => set("cwd", e.target.value)}
          placeholder="/srv/mcp"
        />
      </Field>
      <div className="sm:col-span-2">
        <Field id="args" label="Arguments" errors={argErrors} hint="One argument per line.">
          <TextArea
            id="args"
            rows={3}
            value={state.args}
            invalid={argErrors.length > 0}
            onChange={(e) => set("args", e.target.value)}
            placeholder={"-y\n@modelcontextprotocol/server-everything"}
          />
        </Field>
      </div>
      <div className="sm:col-span-2">
        <KeyValueEditor
          id="env"
          label="Environment"
          keyPlaceholder="NAME"
          rows={state.env}
          onChange={(rows) => set("env", rows)}
          errors={errors}
          errorPrefix="env"
        />
      </div>
    </>
  );
}

import { Field, TextInput } from "@/components/ui/field";
import type { SectionProps } from "./form-state";

/** Name (the slug that prefixes tool names), display name and description. */
export function IdentityFields({ state, set, errors, isNew }: SectionProps & { isNew: boolean }) {
  return (
    <>
      <Field
        id="name"
        label="Name"
        required
        errors={errors.name}
        hint="Lowercase slug; prefixes tool names as name__tool."
      >
        <TextInput
          id="name"
          value={state.name}
          invalid={!!errors.name}
          onChange={(e) => set("name", e.target.value)}
          placeholder="github"
          autoFocus={isNew}
        />
      </Field>
      <Field id="displayName" label="Display name" errors={errors.displayName}>
        <TextInput
          id="displayName"
          value={state.displayName}
          onChange={(e) => set("displayName", e.target.value)}
          placeholder="GitHub"
        />
      </Field>
      <div className="sm:col-span-2">
        <Field id="description" label="Description" errors={errors.description}>
          <TextInput
            id="description"
            value={state.description}
            onChange={(e) => set("description", e.target.value)}
          />
        </Field>
      </div>
    </>
  );
}

import { Field, inputClass, TextInput } from "@/components/ui/field";
import type { AuthType, SectionProps } from "./form-state";
import type { ValueKind } from "./key-value-editor";
import { KeyValueEditor } from "./key-value-editor";
import { OAuthFields } from "./oauth-fields";

const credentialPlaceholders: Record<ValueKind, string> = {
  secret: "secret name",
  env: "VARIABLE_NAME",
  text: "value",
};

/** A remote endpoint: its URL, how Switchboard authenticates to it, and extra headers. */
export function HttpFields({ state, set, errors }: SectionProps) {
  const hasHeaderName = state.authType === "api_key" || state.authType === "custom_header";
  return (
    <>
      <div className="sm:col-span-2">
        <Field
          id="url"
          label="URL"
          required
          errors={errors.url}
          hint="Switchboard connects to this endpoint."
        >
          <TextInput
            id="url"
            type="url"
            value={state.url}
            invalid={!!errors.url}
            onChange={(e) => set("url", e.target.value)}
            placeholder="https://mcp.example.com/mcp"
          />
        </Field>
      </div>
      <Field id="authType" label="Authentication" errors={errors.auth ?? errors["auth.type"]}>
        <select
          id="authType"
          className={inputClass}
          value={state.authType}
          onChange={(e) => set("authType", e.target.value as AuthType)}
        >
          <option value="none">None</option>
          <option value="bearer">Bearer token</option>
          <option value="api_key">API key header</option>
          <option value="custom_header">Custom header</option>
          <option value="oauth">OAuth (sign in with the server)</option>
        </select>
      </Field>
      {hasHeaderName ? (
        <Field id="authHeaderName" label="Header name" errors={errors["auth.headerName"]}>
          <TextInput
            id="authHeaderName"
            value={state.authHeaderName}
            onChange={(e) => set("authHeaderName", e.target.value)}
            placeholder={state.authType === "api_key" ? "X-API-Key" : "X-Token"}
          />
        </Field>
      ) : null}
      {state.authType === "oauth" ? <OAuthFields state={state} set={set} errors={errors} /> : null}
      {state.authType !== "none" && state.authType !== "oauth" ? (
        <Field
          id="authValue"
          label="Credential"
          errors={errors["auth.credential"]}
          hint="Prefer a stored secret: its value is never shown again."
        >
          <div className="flex gap-2">
            <select
              aria-label="Credential kind"
              className={`${inputClass} max-w-[9rem]`}
              value={state.authKind}
              onChange={(e) => set("authKind", e.target.value as ValueKind)}
            >
              <option value="secret">Secret</option>
              <option value="env">Env var</option>
              <option value="text">Text</option>
            </select>
            <TextInput
              id="authValue"
              value={state.authValue}
              invalid={!!errors["auth.credential"]}
              onChange={(e) => set("authValue", e.target.value)}
              placeholder={credentialPlaceholders[state.authKind]}
            />
          </div>
        </Field>
      ) : null}
      <div className="sm:col-span-2">
        <KeyValueEditor
          id="headers"
          label="Headers"
          keyPlaceholder="X-Header"
          rows={state.headers}
          onChange={(rows) => set("headers", rows)}
          errors={errors}
          errorPrefix="headers"
        />
      </div>
    </>
  );
}

import Link from "next/link";
import { Field, TextInput } from "@/components/ui/field";
import type { SectionProps } from "./form-state";

/**
 * OAuth: Switchboard signs in to the server like any MCP client would. Every field is optional:
 * without a client ID it registers itself; a client ID is for servers that only know pre-registered
 * clients. No token is ever typed here: an admin clicks Connect on the server's page after saving.
 */
export function OAuthFields({ state, set, errors }: SectionProps) {
  return (
    <>
      <div className="sm:col-span-2">
        <p id="oauth-help" className="rounded-md bg-slate-50 px-3 py-2 text-xs text-slate-600">
          Leave the client ID empty: Switchboard registers itself (client ID metadata document or dynamic
          registration). After saving, click <span className="font-medium text-slate-800">Connect</span> on
          the server's page.
        </p>
      </div>
      <Field
        id="oauthClientId"
        label="Client ID"
        errors={errors["auth.clientId"]}
        hint="Only for a server that does not let clients register themselves."
      >
        <TextInput
          id="oauthClientId"
          value={state.oauthClientId}
          invalid={!!errors["auth.clientId"]}
          onChange={(e) => set("oauthClientId", e.target.value)}
          placeholder="optional"
          autoComplete="off"
        />
      </Field>
      <Field
        id="oauthClientSecret"
        label="Client secret"
        errors={errors["auth.clientSecret"] ?? errors["auth.clientSecret.secret"]}
        hint={
          <>
            The name of a workspace secret holding it (
            <Link href="/settings/secrets" className="text-indigo-700 hover:underline">
              Settings → Secrets
            </Link>
            ), for a confidential client.
          </>
        }
      >
        <TextInput
          id="oauthClientSecret"
          value={state.oauthClientSecret}
          invalid={!!(errors["auth.clientSecret"] ?? errors["auth.clientSecret.secret"])}
          onChange={(e) => set("oauthClientSecret", e.target.value)}
          placeholder="secret name (optional)"
          autoComplete="off"
        />
      </Field>
      <div className="sm:col-span-2">
        <Field
          id="oauthScopes"
          label="Scopes"
          errors={errors["auth.scopes"]}
          hint="Space separated. Empty: the scopes the server advertises."
        >
          <TextInput
            id="oauthScopes"
            value={state.oauthScopes}
            invalid={!!errors["auth.scopes"]}
            onChange={(e) => set("oauthScopes", e.target.value)}
            placeholder="repo read:org"
            autoComplete="off"
          />
        </Field>
      </div>
    </>
  );
}

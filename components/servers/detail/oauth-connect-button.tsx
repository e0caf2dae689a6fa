"use client";

import { useState } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { startServerOAuth } from "../server-queries";

/** Where the sign-in continues: the authorization server's own page, in this tab (it redirects back). */
export function openAuthorizationPage(url: string): void {
  window.location.href = url;
}

/**
 * Connect, "Sign in again" or "Grant scope X": asks Switchboard for the authorization URL, then leaves for
 * it. A failure before leaving (no metadata, registration refused) is said next to the button.
 */
export function OAuthConnectButton({
  name,
  label,
  scope,
  variant = "primary",
}: {
  name: string;
  label: string;
  scope?: string;
  variant?: ButtonVariant;
}) {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const connect = async () => {
    setPending(true);
    setError(null);
    try {
      const { authorizationUrl } = await startServerOAuth(name, scope);
      openAuthorizationPage(authorizationUrl);
      // Stay pending: the page is about to be replaced by the server's sign-in page.
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The request failed.");
      setPending(false);
    }
  };

  return (
    <span className="inline-flex flex-col items-start gap-1">
      <Button variant={variant} onClick={connect} disabled={isPending} aria-busy={isPending || undefined}>
        {isPending ? (
          <span
            aria-hidden
            className="h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
        ) : null}
        {isPending ? "Opening the sign-in…" : label}
      </Button>
      {error ? (
        <span role="alert" className="max-w-md text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

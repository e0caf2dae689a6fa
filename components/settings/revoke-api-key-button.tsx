"use client";

import { useRouter } from "next/navigation";
import { revokeApiKeyAction } from "@/app/(dashboard)/settings/actions";
import { RevokeKeyButton } from "@/components/keys/revoke-key-button";

/** Revoke for a workspace API key (the Settings page is server-rendered: refreshed after). */
export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  return (
    <RevokeKeyButton name={name} revoke={() => revokeApiKeyAction(id)} onSettled={() => router.refresh()} />
  );
}

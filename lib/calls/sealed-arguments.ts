import { readEnv } from "@/lib/env";
import { decryptSecret, encryptSecret, loadSecretKey } from "@/lib/secrets/encryption";

/**
 * The stored arguments of a call are scrubbed, but the tool must receive the real ones, possibly
 * on another process after an approval. When scrubbing changed the arguments, the originals are
 * kept encrypted with the workspace secret key (bound to the call by the associated data) and
 * dropped as soon as the call can no longer run.
 */

let cachedKey: Buffer | undefined;
function sealingKey(): Buffer {
  if (!cachedKey) {
    const env = readEnv();
    cachedKey = loadSecretKey(env);
  }
  return cachedKey;
}

const associatedData = (tenantId: string, callId: string) => `call-arguments/${tenantId}/${callId}`;

export function sealArguments(
  args: Record<string, unknown>,
  scope: { tenantId: string; callId: string },
): string {
  return encryptSecret(sealingKey(), JSON.stringify(args), associatedData(scope.tenantId, scope.callId));
}

export function openSealedArguments(
  sealed: string,
  scope: { tenantId: string; callId: string },
): Record<string, unknown> {
  return JSON.parse(decryptSecret(sealingKey(), sealed, associatedData(scope.tenantId, scope.callId)));
}

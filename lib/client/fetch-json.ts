import type { ErrorBody } from "@/lib/errors";

/** Browser-side reads through the REST API; the server's error message becomes the Error's message. */
export async function fetchJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { Accept: "application/json", ...init?.headers } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: ErrorBody } | null;
    throw new Error(body?.error?.message ?? `The server answered ${response.status} ${response.statusText}.`);
  }
  return (await response.json()) as T;
}

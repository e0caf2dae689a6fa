/** The client address as Next's server reports it (first x-forwarded-for hop); for audit only. */
export function clientAddress(headers: Headers): string | null {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}

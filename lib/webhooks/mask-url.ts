/**
 * A webhook URL as lists and logs show it: scheme and host, the path masked but its last four
 * characters (a Slack incoming-webhook path is the credential; the tail tells two apart).
 */
export function maskUrl(value: string): string {
  const url = new URL(value);
  const rest = `${url.pathname}${url.search}`;
  return rest.length > 1 ? `${url.origin}/…${rest.length > 12 ? rest.slice(-4) : ""}` : url.origin;
}

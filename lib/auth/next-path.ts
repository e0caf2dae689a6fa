/**
 * Where to go after signing in: a path on this site, or "/". `next` comes from the address bar,
 * so anyone can write it; a value that leaves the site (`//evil.example`, `/\evil.example`,
 * `https://…`, `javascript:`) would turn sign-in into an open redirect. Parsing it against a
 * placeholder origin and keeping it only when the origin is unchanged is the test browsers apply.
 */
const PLACEHOLDER = "http://switchboard.invalid";

export function safeNextPath(next: unknown): string {
  // `?next=a&next=b` arrives as a list: no single place to go.
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER);
  } catch {
    return "/";
  }
  if (url.origin !== PLACEHOLDER) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back to sign-in would only show the form again.
  return url.pathname === "/sign-in" ? "/" : path;
}

/**
 * Names for what an import creates. Deterministic, so importing the same file again finds the
 * same server and the same secrets instead of creating new ones.
 */

const MAX_SERVER_NAME = 40;
const MAX_SECRET_NAME = 100;

/** "GitHub Server" → "github-server"; "" when nothing usable is left. Fits serverNameSchema. */
export function slugifyServerName(source: string): string {
  return slugify(source).slice(0, MAX_SERVER_NAME).replace(/-+$/, "");
}

/** `<server>-<variable>`: "github" + "GITHUB_TOKEN" → "github-github-token". Fits secretNameSchema. */
export function deriveSecretName(server: string, variable: string): string {
  const name = [server, slugify(variable)].filter(Boolean).join("-");
  return name.slice(0, MAX_SECRET_NAME).replace(/-+$/, "");
}

function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

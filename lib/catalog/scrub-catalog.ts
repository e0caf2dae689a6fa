import { scrubText, scrubValue } from "@/lib/calls/scrub";
import { type CatalogContents, type CatalogKind, catalogKinds, entryKeyOf } from "./hashing";

/**
 * A catalog as it may be stored and shown: no value of a workspace secret in any of its texts.
 * A server is handed secrets (its `env`, headers, credential) and may echo them — by mistake or on
 * purpose — into a description, a schema's default, a resource's URI; what is stored is what the
 * REST API, the Tools page and every granted agent's tools/list show. Uses the scrubber of call
 * results (lib/calls/scrub), so both hide the same values the same way.
 *
 * Every string is scrubbed — keys, nested schema texts, annotations — except an entry's identity
 * (a tool's or prompt's name, a resource's URI or URI template): a scrubbed identity would name
 * something the server does not have (calls to it would fail) and two could collide, so such an
 * entry is left out and reported instead, without its name.
 */

export type ScrubbedCatalog = { catalog: CatalogContents; problems: string[] };

const labels: Record<CatalogKind, { entry: string; key: string }> = {
  tools: { entry: "tool", key: "name" },
  resources: { entry: "resource", key: "uri" },
  resourceTemplates: { entry: "resource template", key: "uriTemplate" },
  prompts: { entry: "prompt", key: "name" },
};

export function scrubCatalog(catalog: CatalogContents, secrets: readonly string[]): ScrubbedCatalog {
  if (secrets.length === 0) return { catalog, problems: [] };
  const problems: string[] = [];
  const scrubKind = <T>(kind: CatalogKind, entries: T[]): T[] =>
    entries.flatMap((entry, index) => {
      const key = entryKeyOf[kind](entry as Record<string, unknown>);
      if (scrubText(key, secrets) !== key) {
        const { entry: label, key: field } = labels[kind];
        problems.push(`${label} #${index + 1} was skipped: its ${field} contains the value of a secret`);
        return [];
      }
      return [scrubValue(entry, secrets)];
    });
  const scrubbed = Object.fromEntries(
    catalogKinds.map((kind) => [kind, scrubKind(kind, catalog[kind] as unknown[])]),
  ) as CatalogContents;
  return { catalog: scrubbed, problems };
}

/** Texts about a catalog (problems, a server's info and capabilities) go through the same scrubber. */
export { scrubText, scrubValue };

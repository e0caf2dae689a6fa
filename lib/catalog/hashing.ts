import { createHash } from "node:crypto";
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "@/lib/is-record";

/** What a server offers, as it sent it (definitions verbatim, extra fields included). */
export type CatalogContents = {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
};
export type CatalogKind = keyof CatalogContents;
export const catalogKinds = [
  "tools",
  "resources",
  "resourceTemplates",
  "prompts",
] as const satisfies readonly CatalogKind[];

export type KindDiff = { added: string[]; removed: string[]; changed: string[] };
export type CatalogDiff = Record<CatalogKind, KindDiff>;

type Entry = Record<string, unknown>;

/** The identity of an entry within its list: what a caller names it by. */
export const entryKeyOf: Record<CatalogKind, (entry: Entry) => string> = {
  tools: (e) => String(e.name),
  resources: (e) => String(e.uri),
  resourceTemplates: (e) => String(e.uriTemplate),
  prompts: (e) => String(e.name),
};

/**
 * The fields that define what an entry *is*. `_meta`, `icons` and `execution` are left out: servers
 * put volatile data there (timestamps, request ids) and a change in them must not reset an admin's
 * classification. For resources, `size` and `annotations.lastModified` describe the content's
 * current state, not the offer, so editing a file is not catalog drift.
 */
const canonicalFields: Record<CatalogKind, readonly string[]> = {
  tools: ["name", "title", "description", "inputSchema", "outputSchema", "annotations"],
  resources: ["uri", "name", "title", "description", "mimeType", "annotations"],
  resourceTemplates: ["uriTemplate", "name", "title", "description", "mimeType", "annotations"],
  prompts: ["name", "title", "description", "arguments"],
};

/** JSON with object keys sorted at every level, so equal definitions always serialize alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Entry;
    const members = Object.keys(record)
      .sort()
      .filter((key) => isSerializable(record[key]))
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(",")}}`;
  }
  // Strings, finite numbers, booleans and null as JSON.stringify writes them; NaN/Infinity → null.
  return JSON.stringify(isSerializable(value) ? value : null);
}

function isSerializable(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** One entry reduced to its defining fields (see canonicalFields). */
export function canonicalEntry(kind: CatalogKind, entry: Entry): Entry {
  const picked: Entry = {};
  for (const field of canonicalFields[kind]) {
    if (entry[field] !== undefined) picked[field] = entry[field];
  }
  if (kind === "resources" && isRecord(picked.annotations)) {
    const { lastModified: _ignored, ...annotations } = picked.annotations;
    picked.annotations = annotations;
  }
  return picked;
}

export function hashEntry(kind: CatalogKind, entry: Entry): string {
  return sha256Hex(canonicalJson(canonicalEntry(kind, entry)));
}

export const hashToolDefinition = (tool: Tool): string => hashEntry("tools", tool);

/**
 * The first entry per key in each list. Discovery already skips duplicates; this keeps a catalog
 * from any other source from writing one key twice (or hashing a list the store cannot hold).
 */
export function withUniqueKeys(catalog: CatalogContents): CatalogContents {
  const unique = <T>(kind: CatalogKind, entries: T[]) => {
    const seen = new Set<string>();
    return entries.filter((entry) => {
      const key = entryKeyOf[kind](entry as Entry);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return {
    tools: unique("tools", catalog.tools),
    resources: unique("resources", catalog.resources),
    resourceTemplates: unique("resourceTemplates", catalog.resourceTemplates),
    prompts: unique("prompts", catalog.prompts),
  };
}

/** Every entry in canonical form, each list sorted by key: list order is not drift. */
export function canonicalCatalog(catalog: CatalogContents): CatalogContents {
  const sortedCanonical = (kind: CatalogKind) =>
    (catalog[kind] as Entry[])
      .map((entry) => canonicalEntry(kind, entry))
      .sort((a, b) => compareKeys(entryKeyOf[kind](a), entryKeyOf[kind](b)));
  return {
    tools: sortedCanonical("tools") as Tool[],
    resources: sortedCanonical("resources") as Resource[],
    resourceTemplates: sortedCanonical("resourceTemplates") as ResourceTemplate[],
    prompts: sortedCanonical("prompts") as Prompt[],
  };
}

/**
 * SHA-256 over the whole catalog. Server info, capabilities and instructions are not part of it:
 * a version bump without a changed tool would otherwise make a snapshot whose diff is empty.
 */
export function hashCatalog(catalog: CatalogContents): string {
  return sha256Hex(canonicalJson(canonicalCatalog(catalog)));
}

export function emptyDiff(): CatalogDiff {
  return {
    tools: { added: [], removed: [], changed: [] },
    resources: { added: [], removed: [], changed: [] },
    resourceTemplates: { added: [], removed: [], changed: [] },
    prompts: { added: [], removed: [], changed: [] },
  };
}

export function isEmptyDiff(diff: CatalogDiff): boolean {
  return catalogKinds.every((kind) => {
    const { added, removed, changed } = diff[kind];
    return added.length + removed.length + changed.length === 0;
  });
}

/** Keys added, removed and changed (canonical form differs) per kind; `prev` undefined = first look. */
export function diffCatalogs(prev: CatalogContents | undefined, next: CatalogContents): CatalogDiff {
  const diff = emptyDiff();
  for (const kind of catalogKinds) {
    const before = hashesByKey(kind, (prev?.[kind] ?? []) as Entry[]);
    const after = hashesByKey(kind, next[kind] as Entry[]);
    for (const [key, hash] of after) {
      const previous = before.get(key);
      if (previous === undefined) diff[kind].added.push(key);
      else if (previous !== hash) diff[kind].changed.push(key);
    }
    for (const key of before.keys()) if (!after.has(key)) diff[kind].removed.push(key);
    diff[kind].added.sort(compareKeys);
    diff[kind].removed.sort(compareKeys);
    diff[kind].changed.sort(compareKeys);
  }
  return diff;
}

function hashesByKey(kind: CatalogKind, entries: Entry[]): Map<string, string> {
  return new Map(entries.map((entry) => [entryKeyOf[kind](entry), hashEntry(kind, entry)]));
}

// Code-unit order, not locale order: the result must not depend on the machine's locale.
export const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

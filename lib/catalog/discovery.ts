import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ErrorCode,
  type Implementation,
  McpError,
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  type ServerCapabilities,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { isRecord } from "@/lib/is-record";
import { type CatalogContents, type CatalogKind, catalogKinds } from "./hashing";

export type DiscoveredCatalog = CatalogContents & {
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** One readable line per skipped entry or truncated list; empty when all went well. */
  problems: string[];
};

export type DiscoverOptions = {
  signal?: AbortSignal;
  /** Per request (each page); the SDK's default is 60 s. */
  timeoutMs?: number;
  /** A server is untrusted: more than this per list is cut off and reported. */
  maxEntriesPerList?: number;
  /**
   * Applied to what discovery quotes of the server (an entry's name in a problem, its error
   * message) before cutting it short: a secret cut in half could no longer be scrubbed.
   */
  redact?: (text: string) => string;
};

export const MAX_ENTRIES_PER_LIST = 5_000;
// An empty page with a fresh cursor each time would otherwise loop for ever.
const MAX_PAGES_PER_LIST = 500;
// A server defect repeated on thousands of entries should not become thousands of lines.
const MAX_PROBLEMS_PER_LIST = 20;
// Bounds on one definition; past them it is skipped, not stored (and canonicalJson stays shallow).
const MAX_ENTRY_CHARS = 256 * 1024;
const MAX_ENTRY_DEPTH = 64;

type EntryRules = { label: string; keyField: string; schema: z.ZodType };

type ListSpec = {
  method: "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list";
  field: CatalogKind;
  capability: "tools" | "resources" | "prompts";
  rules: EntryRules;
};

const lists: Record<CatalogKind, ListSpec> = {
  tools: {
    method: "tools/list",
    field: "tools",
    capability: "tools",
    rules: { label: "tool", keyField: "name", schema: ToolSchema },
  },
  resources: {
    method: "resources/list",
    field: "resources",
    capability: "resources",
    rules: { label: "resource", keyField: "uri", schema: ResourceSchema },
  },
  resourceTemplates: {
    method: "resources/templates/list",
    field: "resourceTemplates",
    capability: "resources",
    rules: { label: "resource template", keyField: "uriTemplate", schema: ResourceTemplateSchema },
  },
  prompts: {
    method: "prompts/list",
    field: "prompts",
    capability: "prompts",
    rules: { label: "prompt", keyField: "name", schema: PromptSchema },
  },
};

/**
 * Lists everything a connected server declares, following pagination. Entries are checked one by
 * one against the MCP schema and kept verbatim (the SDK's own list methods reject a whole list for
 * one bad entry, and re-serializing through zod would drop fields such as `$defs`).
 *
 * Throws when a list cannot be read at all (timeout, lost connection, server error): a partial
 * catalog would look like removed tools and be recorded as drift.
 */
export async function discoverCatalog(
  client: Client,
  options: DiscoverOptions = {},
): Promise<DiscoveredCatalog> {
  const capabilities = client.getServerCapabilities();
  if (!capabilities) {
    throw new AppError(
      "upstream_unavailable",
      "The server is not connected, so its catalog cannot be listed.",
    );
  }
  const results = await Promise.all(
    catalogKinds.map((kind) =>
      capabilities[lists[kind].capability]
        ? listAll(client, lists[kind], options)
        : { entries: [], problems: [] },
    ),
  );
  const [tools, resources, resourceTemplates, prompts] = results;
  return {
    tools: (tools?.entries ?? []) as DiscoveredCatalog["tools"],
    resources: (resources?.entries ?? []) as DiscoveredCatalog["resources"],
    resourceTemplates: (resourceTemplates?.entries ?? []) as DiscoveredCatalog["resourceTemplates"],
    prompts: (prompts?.entries ?? []) as DiscoveredCatalog["prompts"],
    capabilities,
    serverInfo: client.getServerVersion(),
    instructions: client.getInstructions(),
    problems: results.flatMap((r) => r.problems),
  };
}

type ListOutcome = { entries: Record<string, unknown>[]; problems: string[] };

async function listAll(client: Client, spec: ListSpec, options: DiscoverOptions): Promise<ListOutcome> {
  const maxEntries = options.maxEntriesPerList ?? MAX_ENTRIES_PER_LIST;
  const entries: Record<string, unknown>[] = [];
  const problems: string[] = [];
  const seenKeys = new Set<string>();
  const seenCursors = new Set<string>();
  const pageSchema = z.looseObject({ [spec.field]: z.array(z.unknown()), nextCursor: z.string().optional() });
  let position = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    options.signal?.throwIfAborted();
    const result = await requestPage(client, spec, pageSchema, cursor, options);
    if (result === "method-not-found") {
      problems.push(`${spec.method} is not implemented although the server declares ${spec.capability}`);
      break;
    }
    const items = result[spec.field] as unknown[];
    for (const item of items) {
      position++;
      if (entries.length === maxEntries) {
        problems.push(
          `the server lists more than ${maxEntries} ${spec.rules.label}s; only the first ${maxEntries} were kept`,
        );
        return { entries, problems: capProblems(problems, spec) };
      }
      const checked = checkEntry(spec.rules, item, position, seenKeys, options.redact);
      if (checked.ok) entries.push(checked.entry);
      else problems.push(checked.problem);
    }
    cursor = result.nextCursor as string | undefined;
    if (cursor === undefined) break;
    if (seenCursors.has(cursor) || page === MAX_PAGES_PER_LIST) {
      problems.push(`${spec.method} kept returning more pages; listing stopped after page ${page}`);
      break;
    }
    seenCursors.add(cursor);
  }
  return { entries, problems: capProblems(problems, spec) };
}

async function requestPage(
  client: Client,
  spec: ListSpec,
  pageSchema: z.ZodType<Record<string, unknown>>,
  cursor: string | undefined,
  options: DiscoverOptions,
): Promise<Record<string, unknown> | "method-not-found"> {
  try {
    return await client.request(
      { method: spec.method, params: cursor === undefined ? {} : { cursor } },
      pageSchema,
      {
        signal: options.signal,
        timeout: options.timeoutMs,
      },
    );
  } catch (error) {
    // The caller's own cancellation is not the server's fault: let it through unchanged.
    if (options.signal?.aborted) throw error;
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return "method-not-found";
    throw toDiscoveryError(spec, error, options.redact);
  }
}

function toDiscoveryError(spec: ListSpec, error: unknown, redact = keep): AppError {
  const detail = truncate(redact(error instanceof Error ? error.message : String(error)), 300);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new AppError("timeout", `The server did not answer ${spec.method} in time.`, { cause: error });
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new AppError("upstream_unavailable", `The connection closed during ${spec.method}.`, {
      cause: error,
    });
  }
  if (error instanceof z.core.$ZodError) {
    return new AppError("upstream_error", `The server's ${spec.method} response has no ${spec.field} list.`, {
      cause: error,
    });
  }
  return new AppError("upstream_error", `The server failed ${spec.method}: ${detail}`, { cause: error });
}

type EntryCheck = { ok: true; entry: Record<string, unknown> } | { ok: false; problem: string };

/** One entry against the MCP schema, the size bounds and the keys seen so far in its list. */
function checkEntry(
  rules: EntryRules,
  item: unknown,
  position: number,
  seenKeys: Set<string>,
  redact = keep,
): EntryCheck {
  const key = isRecord(item) && typeof item[rules.keyField] === "string" ? item[rules.keyField] : undefined;
  const named = typeof key === "string" ? ` (${JSON.stringify(truncate(redact(key), 80))})` : "";
  const skip = (reason: string): EntryCheck => ({
    ok: false,
    problem: `${rules.label} #${position}${named} was skipped: ${reason}`,
  });
  if (!isRecord(item)) return skip("it is not an object");
  const structuralProblem = findStructuralProblem(item);
  if (structuralProblem) return skip(structuralProblem);
  if (JSON.stringify(item).length > MAX_ENTRY_CHARS) return skip("its definition is larger than 256 KiB");
  const parsed = rules.schema.safeParse(item);
  if (!parsed.success) return skip(describeIssue(parsed.error.issues[0], item));
  if (typeof key !== "string" || key === "") return skip(`${rules.keyField} is empty`);
  if (seenKeys.has(key)) return skip(`an earlier ${rules.label} has the same ${rules.keyField}`);
  seenKeys.add(key);
  return { ok: true, entry: item };
}

/** "inputSchema is missing" reads better than zod's "expected object, received undefined". */
function describeIssue(issue: z.core.$ZodIssue | undefined, item: Record<string, unknown>): string {
  if (!issue) return "it does not match the MCP schema";
  const path = issue.path.map(String).join(".");
  if (path === "") return issue.message;
  let value: unknown = item;
  for (const segment of issue.path)
    value = isRecord(value) || Array.isArray(value) ? (value as never)[segment] : undefined;
  return value === undefined ? `${path} is missing` : `${path}: ${issue.message}`;
}

/**
 * What the schema cannot see: nesting deep enough to overflow a recursive walk, and text PostgreSQL
 * refuses to store (NUL, unpaired surrogates) — one such entry would otherwise fail the whole save.
 * Iterative, so a hostile 100,000-level nesting cannot overflow the stack while being measured.
 */
function findStructuralProblem(root: unknown): string | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === "string" && !isStorableText(value)) return "it contains text that cannot be stored";
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_ENTRY_DEPTH) return `it is nested more than ${MAX_ENTRY_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(value)) {
      if (!isStorableText(key)) return "it contains text that cannot be stored";
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isStorableText = (text: string) => !text.includes("\0") && !UNPAIRED_SURROGATE.test(text);

function capProblems(problems: string[], spec: ListSpec): string[] {
  if (problems.length <= MAX_PROBLEMS_PER_LIST) return problems;
  const more = problems.length - MAX_PROBLEMS_PER_LIST;
  return [...problems.slice(0, MAX_PROBLEMS_PER_LIST), `…and ${more} more problems in ${spec.method}`];
}

const keep = (text: string) => text;
const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

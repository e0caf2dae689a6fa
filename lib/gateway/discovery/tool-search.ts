import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import MiniSearch, { type Query, type SearchOptions } from "minisearch";
import type { GovernedToolDto } from "@/lib/catalog/governed-tools";
import type { EffectClass } from "@/lib/policy/effects";

/**
 * Finds a principal's granted tools by what a model would ask for ("gh issue", "send a slack
 * message"): BM25 ranking (MiniSearch) over the tool's own name, its server's name, its title and
 * its description, the names weighing most. Terms match by prefix ("repo" → repository), by a typo's
 * distance ("mesage"), by their singular ("issues" → issue), and a short term also as the
 * abbreviation of a name's word ("gh" → github: the word starts with it and holds its letters in
 * order). The index is built once per list (the list is cached until the catalog or the grants
 * change) and is only ever asked for what that list holds, so nothing ungranted can be found.
 */

/** A tool a principal may call, as the full gateway lists it, with what discovery filters on. */
export type DiscoverableTool = {
  /** exactly the definition `/mcp` lists (gateway name, enforced annotations) */
  tool: Tool;
  server: string;
  /** the enforced effect, or "unclassified" while nobody reviewed the tool */
  effect: EffectClass | "unclassified";
  /** the catalog's record of it (its own name, its server's state) */
  governed: GovernedToolDto;
};

export type ToolSearch = { query: string; server?: string; effect?: string; limit: number };

type IndexedTool = { id: number; name: string; server: string; title: string; description: string };

/** Names' words, lower case, split at separators and camelCase: `createIssue`, `create_issue` → create, issue. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A plural's singular, roughly: issues → issue, repositories → repository (both sides of a match). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const ABBREVIATION_MAX = 4;

/** Words that say nothing about which tool is meant ("read a file", "send to slack"). */
const STOP_WORDS = new Set(
  "a an and any all are as at be by do for from get i in into is it me my of on or our the this to use using via with".split(
    " ",
  ),
);

/** A word as it is indexed and searched: its singular, or nothing for a stop word. */
const termOf = (word: string) => (STOP_WORDS.has(word) ? null : singular(word));

/**
 * `gh` abbreviates `github`: same first letter, every letter in order, shorter, and not just its
 * first letters. So does a numeronym: `k8s` is `kubernetes` (k, 8 letters, s).
 */
function abbreviates(short: string, word: string): boolean {
  if (word.length <= short.length || word[0] !== short[0]) return false;
  const numeronym = /^\p{L}(\d+)(\p{L})$/u.exec(short);
  if (numeronym) return word.length === Number(numeronym[1]) + 2 && word.endsWith(numeronym[2] ?? "");
  // A plain prefix is not an abbreviation: "new" is not short for newsletter.
  if (word.startsWith(short)) return false;
  let at = 1;
  for (let i = 1; i < word.length && at < short.length; i++) if (word[i] === short[at]) at++;
  return at === short.length;
}

export class ToolIndex {
  private readonly search: MiniSearch<IndexedTool>;
  /** the words of names and server names, for abbreviations */
  private readonly nameWords = new Set<string>();
  private readonly byName: Map<string, DiscoverableTool>;

  constructor(readonly tools: DiscoverableTool[]) {
    this.search = new MiniSearch<IndexedTool>({
      fields: ["name", "server", "title", "description"],
      tokenize: wordsOf,
      processTerm: termOf,
    });
    const documents = tools.map((entry, id) => {
      const title = entry.tool.title ?? entry.tool.annotations?.title ?? "";
      for (const word of [...wordsOf(entry.governed.name), ...wordsOf(entry.server)])
        this.nameWords.add(singular(word));
      return {
        id,
        name: entry.governed.name,
        server: entry.server,
        title,
        description: entry.tool.description ?? "",
      };
    });
    this.search.addAll(documents);
    this.byName = new Map(tools.map((entry) => [entry.tool.name, entry]));
  }

  /** The tool listed under this (gateway) name. */
  get(name: string): DiscoverableTool | undefined {
    return this.byName.get(name);
  }

  find(params: ToolSearch): DiscoverableTool[] {
    const words = [...new Set(wordsOf(params.query).flatMap((word) => termOf(word) ?? []))];
    if (words.length === 0) return [];
    const query: Query = {
      combineWith: "OR",
      queries: words.map((word) => this.termQuery(word)),
    };
    const options: SearchOptions = {
      boost: { name: 3, server: 2, title: 2, description: 1 },
      filter: (result) => {
        const entry = this.tools[result.id as number];
        return (
          entry !== undefined &&
          (params.server === undefined || entry.server === params.server) &&
          (params.effect === undefined || entry.effect === params.effect)
        );
      },
    };
    return this.search
      .search(query, options)
      .slice(0, params.limit)
      .map((result) => this.tools[result.id as number] as DiscoverableTool);
  }

  /** One word of the query: itself (by prefix, and with a typo's distance when long), or a name's word it abbreviates. */
  private termQuery(word: string): Query {
    const itself: Query = {
      queries: [word],
      // Not for 3 letters: "new" would find every newsletter tool.
      prefix: word.length >= 4,
      fuzzy: word.length >= 5 ? 0.2 : false,
      combineWith: "OR",
    };
    if (word.length < 2 || word.length > ABBREVIATION_MAX) return itself;
    const expanded = [...this.nameWords].filter((nameWord) => abbreviates(word, nameWord));
    if (expanded.length === 0) return itself;
    return {
      combineWith: "OR",
      queries: [itself, { queries: expanded, combineWith: "OR", fields: ["name", "server"] }],
    };
  }
}

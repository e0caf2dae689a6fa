import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { toDisplayPath } from "./sandbox-path.js";

export type SearchMatch =
  | { path: string; kind: "name" }
  | { path: string; kind: "content"; line: number; preview: string };

export interface SearchOutcome {
  matches: SearchMatch[];
  /** true when the result cap was hit: there may be more matches. */
  truncated: boolean;
  /** files whose contents were not searched (too big, binary or unreadable). */
  skippedFiles: number;
}

export interface SearchOptions {
  realRoot: string;
  /** real path of the folder to search, already checked to be inside realRoot. */
  start: string;
  query: string;
  maxMatches: number;
  maxFileBytes: number;
}

const PREVIEW_CHARS = 160;

/**
 * Case-insensitive substring search over names and text contents below `start`.
 * Symlinks are not followed: that keeps the walk inside the root and free of cycles
 * without re-checking every entry.
 */
export async function searchFiles(options: SearchOptions): Promise<SearchOutcome> {
  const needle = options.query.toLowerCase();
  const outcome: SearchOutcome = { matches: [], truncated: false, skippedFiles: 0 };
  const add = (match: SearchMatch): boolean => {
    if (outcome.matches.length >= options.maxMatches) {
      outcome.truncated = true;
      return false;
    }
    outcome.matches.push(match);
    return true;
  };

  // Depth-first with sorted entries, so the same tree always gives the same (capped) answer.
  const pending = [options.start];
  while (pending.length > 0 && !outcome.truncated) {
    const dir = pending.pop() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
    if (!entries) continue;
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const shown = toDisplayPath(options.realRoot, full);
      if (entry.name.toLowerCase().includes(needle) && !add({ path: shown, kind: "name" })) break;
      if (entry.isDirectory()) subdirs.push(full);
      else if (entry.isFile() && !(await searchContents(full, shown, needle, options, outcome, add))) break;
    }
    // Reverse so that popping visits subfolders in alphabetical order.
    pending.push(...subdirs.reverse());
  }
  return outcome;
}

/** Returns false once the result cap is reached. */
async function searchContents(
  file: string,
  shown: string,
  needle: string,
  options: SearchOptions,
  outcome: SearchOutcome,
  add: (match: SearchMatch) => boolean,
): Promise<boolean> {
  const info = await lstat(file).catch(() => undefined);
  if (!info || info.size > options.maxFileBytes) {
    outcome.skippedFiles++;
    return true;
  }
  const buffer = await readFile(file).catch(() => undefined);
  if (!buffer || looksBinary(buffer)) {
    outcome.skippedFiles++;
    return true;
  }
  const lines = buffer.toString("utf8").split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    if (!line.toLowerCase().includes(needle)) continue;
    if (!add({ path: shown, kind: "content", line: index + 1, preview: toPreview(line) })) return false;
  }
  return true;
}

/** The same heuristic git and grep use: a NUL byte near the start means "not text". */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}

function toPreview(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS - 1)}…` : trimmed;
}

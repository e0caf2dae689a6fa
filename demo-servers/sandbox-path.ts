import { readlink, realpath } from "node:fs/promises";
import path from "node:path";

export const OUTSIDE_ROOT_MESSAGE = "path is outside the files root";

// Deep enough for any sane chain of links; realpath itself reports ELOOP for real cycles.
const MAX_LINK_HOPS = 40;

/**
 * Resolves `requested` (relative to `root`, or absolute) to a real path inside `root`.
 *
 * The answer is a real path (every symlink followed), so a caller that opens it cannot be
 * redirected outside by a link. Paths that do not exist yet resolve too (their nearest
 * existing ancestor is checked); the caller's own fs call then reports "not found".
 * Throws `Error(OUTSIDE_ROOT_MESSAGE)` for any escape.
 */
export async function resolveInsideRoot(root: string, requested: string): Promise<string> {
  if (requested.includes("\0")) throw new Error("path contains a NUL byte");
  const lexicalRoot = path.resolve(root);
  const realRoot = await realpath(lexicalRoot);
  const candidate = path.resolve(lexicalRoot, requested);
  // Refuse obvious escapes before touching the disk, so the answer never depends on what
  // exists outside the root. An absolute path may name the root either way (e.g. /tmp vs /private/tmp).
  if (!isWithin(lexicalRoot, candidate) && !isWithin(realRoot, candidate)) {
    throw new Error(OUTSIDE_ROOT_MESSAGE);
  }
  const resolved = await realpathAllowingMissing(candidate, 0);
  if (!isWithin(realRoot, resolved)) throw new Error(OUTSIDE_ROOT_MESSAGE);
  return resolved;
}

export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  // Compare whole segments: a sibling named "..notes" is inside, "../notes" is not.
  return (
    relative === "" ||
    (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

async function realpathAllowingMissing(target: string, hops: number): Promise<string> {
  try {
    return await realpath(target);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  // A dangling symlink must be judged by where it points: the target could be created
  // outside the root later, and reading through the link would follow it.
  const linkTarget = await readlink(target).catch(() => undefined);
  if (linkTarget !== undefined) {
    if (hops >= MAX_LINK_HOPS) throw new Error("too many levels of symbolic links");
    return realpathAllowingMissing(path.resolve(path.dirname(target), linkTarget), hops + 1);
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  return path.join(await realpathAllowingMissing(parent, hops), path.basename(target));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ENOTDIR: a path "through" a regular file (inventory.csv/x) is missing, not an escape.
  return code === "ENOENT" || code === "ENOTDIR";
}

/** How a resolved path is shown to the model: relative to the root, "/"-separated, "." for the root. */
export function toDisplayPath(realRoot: string, resolved: string): string {
  const relative = path.relative(realRoot, resolved);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}

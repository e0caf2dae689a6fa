// What `npm start` needs to know before it serves: is the build in .next/ made from these sources?
// A `next build` takes over a minute on a small machine, and most starts follow no change at all.
//
// Decided here: the inputs are the source files git knows (tracked, or new and not ignored) minus
// what never reaches the build (tests, docs, Markdown, CI), plus the local .env files, the Node
// version, the build's own arguments and the environment Next.js inlines at build time (NODE_ENV,
// NEXT_PUBLIC_*). Their hash goes into .next/switchboard-build.json with the BUILD_ID it produced.
// The build is reused only when both match: a build made by another command (`next build` by hand,
// `npm test`) has another BUILD_ID, and an interrupted one has no record (it is removed before
// building), so either is rebuilt. Plain Node, no dependency: it runs before anything is built.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The record of the last build `npm start` made, inside .next/ so it goes wherever the build goes. */
export const STAMP_FILE = "switchboard-build.json";

/** Paths that never reach `next build`: changing them must not cost a rebuild. */
const NOT_BUILD_INPUTS = [/^tests\//, /^docs\//, /^\.ci\//, /^demo-servers\/sandbox\//, /\.md$/];

/** Folders the fallback walk (no git) never enters: outputs, data and dependencies. */
const NOT_SOURCE_FOLDERS = new Set([
  ".git",
  ".next",
  ".data",
  "node_modules",
  "test-results",
  "playwright-report",
]);

/** Source files, relative to root, sorted: git's view when it is a checkout, else a walk. */
export function listSourceFiles(root) {
  let listed;
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
    listed = out.toString("utf8").split("\0").filter(Boolean);
  } catch {
    listed = walk(root, "");
  }
  return [...new Set(listed)].filter((file) => !NOT_BUILD_INPUTS.some((re) => re.test(file))).sort();
}

function walk(root, dir) {
  const files = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!NOT_SOURCE_FOLDERS.has(entry.name)) files.push(...walk(root, rel));
    } else if (entry.isFile()) files.push(rel);
  }
  return files;
}

/** The environment a build depends on: what Next.js inlines, nothing else (no secret is hashed in). */
export function buildEnvironment(env) {
  return Object.keys(env)
    .filter((name) => name === "NODE_ENV" || name.startsWith("NEXT_PUBLIC_"))
    .sort()
    .map((name) => `${name}=${env[name]}`);
}

/** One hex digest of everything the build is made from. */
export function hashBuildInputs({ root, env = process.env, buildArgs = [], nodeVersion = process.version }) {
  const hash = createHash("sha256");
  hash.update(`node ${nodeVersion}\0args ${JSON.stringify(buildArgs)}\0`);
  for (const line of buildEnvironment(env)) hash.update(`env ${line}\0`);
  // .env files are ignored by git but read by `next build`.
  const envFiles = readdirSync(root).filter((name) => name === ".env" || name.startsWith(".env."));
  for (const file of [...new Set([...listSourceFiles(root), ...envFiles])].sort()) {
    const full = path.join(root, file);
    // A file git still lists but that was deleted counts as missing, which is a change too.
    const content = existsSync(full) && statSync(full).isFile() ? readFileSync(full) : null;
    hash.update(`file ${file}\0`);
    hash.update(content === null ? "missing" : createHash("sha256").update(content).digest("hex"));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The id of the build in distDir, or null when there is none (missing, empty, unreadable). */
export function readBuildId(distDir) {
  try {
    return readFileSync(path.join(distDir, "BUILD_ID"), "utf8").trim() || null;
  } catch {
    return null;
  }
}

function readStamp(distDir) {
  try {
    const stamp = JSON.parse(readFileSync(path.join(distDir, STAMP_FILE), "utf8"));
    return typeof stamp?.inputsHash === "string" && typeof stamp?.buildId === "string" ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Whether `npm start` must build: `{build: true, reason}` or `{build: false, builtAt}`.
 * Anything missing, unreadable or different means build — reusing a wrong build is the one failure
 * that would not announce itself.
 */
export function decideBuild({ distDir, inputsHash, force = false }) {
  if (force) return { build: true, reason: "a rebuild was asked for (SWITCHBOARD_REBUILD)" };
  const buildId = readBuildId(distDir);
  if (!buildId) return { build: true, reason: "there is no complete build in .next/ yet" };
  const stamp = readStamp(distDir);
  if (!stamp) return { build: true, reason: "nothing records what the build in .next/ was made from" };
  if (stamp.buildId !== buildId)
    return { build: true, reason: "the build in .next/ was made by another command" };
  if (stamp.inputsHash !== inputsHash)
    return { build: true, reason: "the sources changed since the build in .next/ was made" };
  return { build: false, builtAt: stamp.builtAt ?? null };
}

/** The record written after a successful build: its BUILD_ID with the inputs it was made from. */
export function stampFor({ distDir, inputsHash, now = new Date() }) {
  const buildId = readBuildId(distDir);
  if (!buildId) throw new Error("next build finished without writing .next/BUILD_ID");
  return { buildId, inputsHash, builtAt: now.toISOString() };
}

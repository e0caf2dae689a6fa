import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README is short and sends readers to docs/: every link and image there must lead somewhere,
// every page must be reachable from it, and the two commands a newcomer needs stay in view.

const root = path.resolve(import.meta.dirname, "../..");
const pages = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** Markdown outside code: fenced blocks and inline code hold examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** `[text](target)` and `![alt](target)` with a local target: [page, target]. */
function localLinks(file: string): string[] {
  const targets = [...prose(read(file)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  return targets.filter((target) => !/^[a-z]+:/i.test(target));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(file: string): Set<string> {
  const headings = prose(read(file)).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(
    headings.map((heading) =>
      heading
        .replace(/^#+ /, "")
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

describe("README and docs/", () => {
  it.each(pages)("%s: every local link and image resolves, anchors included", (file) => {
    const broken: string[] = [];
    for (const target of localLinks(file)) {
      const [relative = "", anchor] = target.split("#");
      const resolved = relative ? path.normalize(path.join(path.dirname(file), relative)) : file;
      if (!existsSync(path.join(root, resolved))) broken.push(`${target} (no ${resolved})`);
      else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
        broken.push(`${target} (no heading #${anchor} in ${resolved})`);
      else if (/\.(png|jpe?g|gif|svg)$/i.test(resolved) && statSync(path.join(root, resolved)).size === 0)
        broken.push(`${target} (empty image)`);
    }
    expect(broken).toEqual([]);
  });

  it("the README links every docs page, and shows its screenshots", () => {
    const linked = new Set(localLinks("README.md").map((target) => target.split("#")[0]));
    const unlinked = pages.filter((page) => page !== "README.md" && !linked.has(page));
    expect(unlinked).toEqual([]);
    expect([...linked].filter((target) => target?.startsWith("docs/images/")).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it("the README keeps the start and test commands in view (.ci/run runs `npm test`)", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(read(".ci/run")).toMatch(/^npm test$/m);
  });

  it("the README stays short: reference belongs in docs/", () => {
    // The old README was 81 KB of reference before a newcomer had done anything.
    expect(read("README.md").length).toBeLessThan(12_000);
  });
});

describe("docs/configuration.md and friends", () => {
  /** Names that look like settings but are not read from the environment by people. */
  const notSettings = new Set([
    "SWITCHBOARD_DATA_DIR_LOCKED", // an error code (lib/db/data-dir-lock.ts)
    "SWITCHBOARD_FAULT_", // test-only fault points (lib/fault-point.ts)
    "SWITCHBOARD_AUTH_HEADER", // the placeholder variable written into exported client configs
  ]);

  function sourceFiles(dir: string): string[] {
    return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return sourceFiles(rel);
      return /\.(ts|tsx|mjs)$/.test(entry.name) ? [rel] : [];
    });
  }

  it("every SWITCHBOARD_* variable the code reads is documented somewhere a reader finds it", () => {
    const code = ["lib", "app", "cli", "bin"].flatMap(sourceFiles).concat("server.mjs", "instrumentation.ts");
    const names = new Set(code.flatMap((file) => read(file).match(/SWITCHBOARD_[A-Z_]+/g) ?? []));
    const docs = pages.map(read).join("\n");
    const undocumented = [...names].filter((name) => !notSettings.has(name) && !docs.includes(name));
    expect(undocumented).toEqual([]);
    expect(names.size).toBeGreaterThan(10);
  });
});

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideBuild, hashBuildInputs, STAMP_FILE, stampFor } from "@/scripts/build-stamp.mjs";

// scripts/build-stamp.mjs on real folders (and a real git checkout): `npm start` builds unless .next/
// holds a build it recorded for exactly these sources.

let root: string;
const distDir = () => path.join(root, ".next");

function write(file: string, content: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
}

/** What `next build` leaves, then what build-if-changed.mjs records after it. */
function finishBuild(buildId: string, inputsHash: string) {
  write(".next/BUILD_ID", buildId);
  write(`.next/${STAMP_FILE}`, JSON.stringify(stampFor({ distDir: distDir(), inputsHash })));
}

const hash = (env: Record<string, string> = {}) => hashBuildInputs({ root, env, buildArgs: [] });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "build-stamp-"));
  write("package.json", '{"name": "x"}');
  write("app/page.tsx", "export default () => 'one';");
  write("tests/unit/a.test.ts", "test");
  write("README.md", "# x");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("decideBuild", () => {
  it("builds when there is no build at all", () => {
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toEqual({
      build: true,
      reason: "there is no complete build in .next/ yet",
    });
  });

  it("builds when a build exists but nothing records what it was made from", () => {
    write(".next/BUILD_ID", "abc");
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toMatchObject({ build: true });
    write(`.next/${STAMP_FILE}`, "{ not json");
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toMatchObject({ build: true });
  });

  it("reuses the build while the sources are unchanged, and rebuilds once one changes", () => {
    finishBuild("abc", hash());
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toMatchObject({ build: false });

    write("app/page.tsx", "export default () => 'two';");
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toEqual({
      build: true,
      reason: "the sources changed since the build in .next/ was made",
    });
  });

  it("rebuilds when another command replaced the build it recorded", () => {
    finishBuild("abc", hash());
    write(".next/BUILD_ID", "made-by-next-build-by-hand");
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toEqual({
      build: true,
      reason: "the build in .next/ was made by another command",
    });
  });

  it("rebuilds when an interrupted build left no BUILD_ID", () => {
    finishBuild("abc", hash());
    rmSync(path.join(root, ".next/BUILD_ID"));
    expect(decideBuild({ distDir: distDir(), inputsHash: hash() })).toMatchObject({ build: true });
  });

  it("rebuilds when asked to, whatever the record says", () => {
    finishBuild("abc", hash());
    expect(decideBuild({ distDir: distDir(), inputsHash: hash(), force: true })).toMatchObject({
      build: true,
    });
  });
});

describe("hashBuildInputs", () => {
  it("ignores what never reaches the build: tests, docs, Markdown", () => {
    const before = hash();
    write("tests/unit/a.test.ts", "changed");
    write("docs/cli.md", "new page");
    write("README.md", "# rewritten");
    expect(hash()).toBe(before);
  });

  it("counts new and deleted sources, the lockfile and .env files", () => {
    const seen = new Set([hash()]);
    write("lib/new-module.ts", "export const x = 1;");
    seen.add(hash());
    rmSync(path.join(root, "lib/new-module.ts"));
    write("package-lock.json", "{}");
    seen.add(hash());
    write(".env.local", "NEXT_PUBLIC_X=1");
    seen.add(hash());
    expect(seen.size).toBe(4);
  });

  it("counts the environment Next.js inlines, not the rest (no secret is hashed in)", () => {
    const before = hash({ NODE_ENV: "production" });
    expect(hash({ NODE_ENV: "production", SWITCHBOARD_SECRET_KEY: "k", PORT: "4000" })).toBe(before);
    expect(hash({ NODE_ENV: "development" })).not.toBe(before);
    expect(hash({ NODE_ENV: "production", NEXT_PUBLIC_FLAG: "on" })).not.toBe(before);
  });

  it("counts the Node version and the build's arguments", () => {
    const base = { root, env: {}, buildArgs: [] as string[], nodeVersion: "v20.19.0" };
    expect(hashBuildInputs({ ...base, nodeVersion: "v22.19.0" })).not.toBe(hashBuildInputs(base));
    expect(hashBuildInputs({ ...base, buildArgs: ["--webpack"] })).not.toBe(hashBuildInputs(base));
  });

  it("in a git checkout, counts untracked sources but not ignored files", () => {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
    write(".gitignore", ".next/\n.data/\nscratch.log\n");
    git("init", "-q");
    git("add", "-A");
    const before = hash();
    write(".data/pglite/file", "database pages");
    write("scratch.log", "noise");
    expect(hash()).toBe(before);
    write("components/new-card.tsx", "export {}");
    expect(hash()).not.toBe(before);
  });
});

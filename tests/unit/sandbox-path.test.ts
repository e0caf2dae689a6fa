import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTSIDE_ROOT_MESSAGE, resolveInsideRoot, toDisplayPath } from "@/demo-servers/sandbox-path";

// Layout built in a temp folder:
//   root/notes/a.md
//   root/..notes/b.md                   a name that merely starts with ".."
//   root/inside-link -> root/notes
//   root/escape-dir -> outside
//   root/escape-file -> outside/secret.txt
//   root/dangling-out -> outside/not-yet (does not exist)
//   root-evil/x.txt                     shares the root's name as a prefix
//   outside/secret.txt
//   root-alias -> root
let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "sandbox-path-")));
  root = path.join(base, "root");
  const outside = path.join(base, "outside");
  await mkdir(path.join(root, "notes"), { recursive: true });
  await mkdir(path.join(root, "..notes"));
  await mkdir(path.join(base, "root-evil"));
  await mkdir(outside);
  await writeFile(path.join(root, "notes", "a.md"), "inside");
  await writeFile(path.join(root, "..notes", "b.md"), "inside too");
  await writeFile(path.join(base, "root-evil", "x.txt"), "outside");
  await writeFile(path.join(outside, "secret.txt"), "outside");
  await symlink(path.join(root, "notes"), path.join(root, "inside-link"));
  await symlink(outside, path.join(root, "escape-dir"));
  await symlink(path.join(outside, "secret.txt"), path.join(root, "escape-file"));
  await symlink(path.join(outside, "not-yet"), path.join(root, "dangling-out"));
  await symlink(root, path.join(base, "root-alias"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("resolveInsideRoot", () => {
  // `expected` is relative to the root; the function returns a real absolute path.
  const allowed: Array<{ name: string; requested: () => string; expected: string }> = [
    { name: "the root itself", requested: () => ".", expected: "" },
    { name: "the root as an empty path", requested: () => "", expected: "" },
    { name: "the root as an absolute path", requested: () => root, expected: "" },
    { name: "a file inside", requested: () => "notes/a.md", expected: "notes/a.md" },
    {
      name: "an absolute path inside",
      requested: () => path.join(root, "notes/a.md"),
      expected: "notes/a.md",
    },
    { name: "a '..' that stays inside", requested: () => "notes/../notes/a.md", expected: "notes/a.md" },
    {
      name: "a folder whose name starts with '..'",
      requested: () => "..notes/b.md",
      expected: "..notes/b.md",
    },
    { name: "a symlink that stays inside", requested: () => "inside-link/a.md", expected: "notes/a.md" },
    { name: "a missing file inside", requested: () => "notes/missing.md", expected: "notes/missing.md" },
    { name: "a path through a regular file", requested: () => "notes/a.md/x", expected: "notes/a.md/x" },
  ];

  it.each(allowed)("allows $name", async ({ requested, expected }) => {
    await expect(resolveInsideRoot(root, requested())).resolves.toBe(path.join(root, expected));
  });

  const refused: Array<{ name: string; requested: () => string }> = [
    { name: "the parent folder", requested: () => ".." },
    { name: "a '..' escape to a real file", requested: () => "../outside/secret.txt" },
    { name: "a deep '..' escape", requested: () => "notes/../../outside/secret.txt" },
    { name: "a sibling sharing the root's prefix", requested: () => "../root-evil/x.txt" },
    { name: "an absolute path outside", requested: () => "/etc/passwd" },
    { name: "a symlinked folder outside", requested: () => "escape-dir/secret.txt" },
    { name: "a missing file behind a symlink outside", requested: () => "escape-dir/missing.txt" },
    { name: "a symlinked file outside", requested: () => "escape-file" },
    { name: "a dangling symlink pointing outside", requested: () => "dangling-out" },
  ];

  it.each(refused)("refuses $name", async ({ requested }) => {
    await expect(resolveInsideRoot(root, requested())).rejects.toThrow(OUTSIDE_ROOT_MESSAGE);
  });

  it("refuses a NUL byte instead of passing it to the file system", async () => {
    await expect(resolveInsideRoot(root, "notes/a.md\0.txt")).rejects.toThrow("NUL byte");
  });

  it("accepts a root given through a symlink and answers with real paths", async () => {
    const alias = path.join(base, "root-alias");
    await expect(resolveInsideRoot(alias, "notes/a.md")).resolves.toBe(path.join(root, "notes/a.md"));
    // Either spelling of the root works for absolute paths.
    await expect(resolveInsideRoot(alias, path.join(root, "notes/a.md"))).resolves.toBe(
      path.join(root, "notes/a.md"),
    );
    await expect(resolveInsideRoot(alias, "../outside/secret.txt")).rejects.toThrow(OUTSIDE_ROOT_MESSAGE);
  });
});

describe("toDisplayPath", () => {
  it.each([
    { resolved: "", shown: "." },
    { resolved: "notes", shown: "notes" },
    { resolved: "notes/a.md", shown: "notes/a.md" },
  ])("shows $resolved as '$shown'", ({ resolved, shown }) => {
    expect(toDisplayPath(root, path.join(root, resolved))).toBe(shown);
  });
});

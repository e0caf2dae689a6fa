// The two demo servers, spawned the way Switchboard runs them: real processes over real stdio.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const OUTSIDE = "path is outside the files root";

interface Connected {
  client: Client;
  stderr: () => string;
}

/** Spawns `node --import tsx demo-servers/<script> ...extraArgs` and connects an SDK client. */
async function connect(script: string, extraArgs: string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", path.join(repoRoot, "demo-servers", script), ...extraArgs],
    cwd: repoRoot,
    stderr: "pipe",
  });
  // Keep the server's stderr for failure messages instead of mixing it into the test output.
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const client = new Client({ name: "demo-servers-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, stderr: () => log };
}

interface ToolOutcome {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .filter((item): item is { type: "text"; text: string } => item?.type === "text")
    .map((item) => item.text)
    .join("\n");
  return {
    text,
    isError: result.isError === true,
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}

describe("local-tools demo server", () => {
  let server: Connected;

  beforeAll(async () => {
    server = await connect("local-tools.ts");
  });

  afterAll(async () => {
    await server?.client.close();
  });

  it("introduces itself and lists three read-only tools and write_note", async () => {
    expect(server.client.getServerVersion()?.name).toBe("local-tools");
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "current_time",
      "echo",
      "word_count",
      "write_note",
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== "write_note");
    }
    expect(tools.find((tool) => tool.name === "word_count")?.outputSchema?.properties).toHaveProperty(
      "words",
    );
  });

  it("writes a note into the sandbox inbox only, never over another, whatever the title", async () => {
    const inbox = path.join(repoRoot, "demo-servers", "sandbox", "notes", "inbox");
    const title = `../../../escape ${Date.now()}`;
    const first = await call(server.client, "write_note", { title, text: "hello" });
    const second = await call(server.client, "write_note", { title, text: "again" });
    try {
      expect(first.isError).toBe(false);
      // The title's slashes and dots cannot leave the inbox: the name is letters, digits, dashes.
      expect(first.structured?.path).toMatch(/^notes\/inbox\/escape-\d+\.md$/);
      expect(second.structured?.path).toMatch(/^notes\/inbox\/escape-\d+-2\.md$/);
      const saved = await readFile(
        path.join(repoRoot, "demo-servers", "sandbox", String(first.structured?.path)),
        "utf8",
      );
      expect(saved).toBe(`# ${title}\n\nhello\n`);
    } finally {
      for (const outcome of [first, second])
        if (outcome.structured?.path)
          await rm(path.join(inbox, path.basename(String(outcome.structured.path))), { force: true });
    }
  });

  it("echoes text back unchanged", async () => {
    const text = "hello, switchboard ✨\n  second line ";
    const outcome = await call(server.client, "echo", { text });
    expect(outcome).toMatchObject({ isError: false, text });
  });

  it("counts words, characters and lines", async () => {
    // The skin-tone thumbs-up is several code points but one character to a reader.
    const outcome = await call(server.client, "word_count", {
      text: "The quick brown fox\njumps over 👍🏽 the lazy dog\n",
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.structured).toEqual({ words: 10, characters: 46, lines: 2 });
    expect(outcome.text).toBe("10 words, 46 characters, 2 lines");
  });

  it("counts nothing in an empty text", async () => {
    const outcome = await call(server.client, "word_count", { text: "" });
    expect(outcome.structured).toEqual({ words: 0, characters: 0, lines: 0 });
  });

  it("tells the time in a requested zone", async () => {
    const before = Date.now();
    const outcome = await call(server.client, "current_time", { timeZone: "Asia/Kolkata" });
    expect(outcome.isError).toBe(false);
    const structured = outcome.structured ?? {};
    expect(structured).toMatchObject({ timeZone: "Asia/Kolkata", utcOffset: "+05:30" });
    const iso = String(structured.iso);
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(iso)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(iso)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(outcome.text).toContain(iso);
    expect(outcome.text).toContain("Asia/Kolkata");
    expect(String(structured.local)).toContain(String(new Date(iso).getUTCFullYear()));
  });

  it("defaults to the server's own time zone", async () => {
    const outcome = await call(server.client, "current_time");
    expect(outcome.isError).toBe(false);
    expect(outcome.structured?.timeZone).toEqual(expect.any(String));
    expect(outcome.structured?.timeZone).not.toBe("");
  });

  it("rejects an unknown time zone with a clear error", async () => {
    const outcome = await call(server.client, "current_time", { timeZone: "Mars/Olympus_Mons" });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain('unknown time zone "Mars/Olympus_Mons"');
  });
});

describe("files demo server on the bundled sandbox", () => {
  let server: Connected;

  beforeAll(async () => {
    server = await connect("files.ts");
  });

  afterAll(async () => {
    await server?.client.close();
  });

  it("lists three read-only tools", async () => {
    expect(server.client.getServerVersion()?.name).toBe("files");
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["list_directory", "read_file", "search_files"]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  it("lists the sample files at the root", async () => {
    const outcome = await call(server.client, "list_directory");
    expect(outcome.isError, server.stderr()).toBe(false);
    expect(outcome.structured?.path).toBe(".");
    expect(outcome.structured?.entries).toEqual(
      expect.arrayContaining([
        { name: "data", type: "directory" },
        { name: "notes", type: "directory" },
        { name: "README.md", type: "file", size: expect.any(Number) },
      ]),
    );
    expect(outcome.text).toContain("README.md");
    expect(outcome.text).toContain("notes/");
  });

  it("lists a subfolder", async () => {
    const outcome = await call(server.client, "list_directory", { path: "notes" });
    expect(outcome.structured?.entries).toEqual(
      expect.arrayContaining([{ name: "ideas.md", type: "file", size: expect.any(Number) }]),
    );
  });

  it("reads a sample file", async () => {
    const outcome = await call(server.client, "read_file", { path: "notes/ideas.md" });
    expect(outcome.isError).toBe(false);
    expect(outcome.text).toContain("# Ideas for the spring workshop");
  });

  it("finds a word in contents, case-insensitively, with line numbers", async () => {
    const outcome = await call(server.client, "search_files", { query: "LANTERN" });
    expect(outcome.isError).toBe(false);
    expect(outcome.structured?.matches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "data/inventory.csv", kind: "content", line: 2 }),
        expect.objectContaining({ path: "notes/ideas.md", kind: "content", line: 3 }),
      ]),
    );
    expect(outcome.text).toContain("data/inventory.csv:2: Brass lantern");
  });

  it("finds a file by name", async () => {
    const outcome = await call(server.client, "search_files", { query: "inventory" });
    expect(outcome.structured?.matches).toContainEqual({ path: "data/inventory.csv", kind: "name" });
  });

  it("says so when nothing matches", async () => {
    const outcome = await call(server.client, "search_files", { query: "zeppelin" });
    expect(outcome.isError).toBe(false);
    expect(outcome.structured?.matches).toEqual([]);
    expect(outcome.text).toContain('no matches for "zeppelin"');
  });

  it.each([
    { tool: "read_file", args: { path: "../package.json" } },
    { tool: "read_file", args: { path: "/etc/passwd" } },
    { tool: "list_directory", args: { path: ".." } },
    { tool: "search_files", args: { query: "name", path: "../.." } },
  ])("refuses $tool outside the root: $args.path", async ({ tool, args }) => {
    const outcome = await call(server.client, tool, args);
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toBe(OUTSIDE);
  });

  it("reports a missing file without revealing where the root is", async () => {
    const outcome = await call(server.client, "read_file", { path: "notes/nope.md" });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toBe("no such file or directory: notes/nope.md");
  });

  it("tells the model to list a folder rather than read it", async () => {
    const outcome = await call(server.client, "read_file", { path: "notes" });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain("use list_directory");
  });
});

describe("files demo server on a root given on the command line", () => {
  let base: string;
  let server: Connected;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), "files-demo-"));
    const root = path.join(base, "root");
    await mkdir(path.join(base, "outside"), { recursive: true });
    await mkdir(root);
    await writeFile(path.join(base, "outside", "secret.txt"), "top secret plans");
    await writeFile(path.join(root, "big.txt"), "secret ".repeat(40_000)); // ~273 KiB
    await writeFile(
      path.join(root, "blob.bin"),
      Buffer.from([0x73, 0x65, 0x63, 0x72, 0x65, 0x74, 0x00, 0xff]),
    );
    await writeFile(path.join(root, "small.txt"), "nothing to hide");
    await symlink(path.join(base, "outside"), path.join(root, "escape"));
    server = await connect("files.ts", [root]);
  });

  afterAll(async () => {
    await server?.client.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("serves that folder instead of the sandbox", async () => {
    const outcome = await call(server.client, "list_directory");
    expect(outcome.structured?.entries).toEqual(
      expect.arrayContaining([
        { name: "small.txt", type: "file", size: 15 },
        { name: "escape", type: "symlink" },
      ]),
    );
  });

  it("refuses to follow a symlink out of the root", async () => {
    for (const [tool, requested] of [
      ["read_file", "escape/secret.txt"],
      ["list_directory", "escape"],
    ] as const) {
      const outcome = await call(server.client, tool, { path: requested });
      expect(outcome, `${tool} ${requested}`).toMatchObject({ isError: true, text: OUTSIDE });
    }
  });

  it("refuses files over 256 KiB", async () => {
    const outcome = await call(server.client, "read_file", { path: "big.txt" });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain("too large");
    expect(outcome.text).toContain("256 KiB");
  });

  it("refuses binary files", async () => {
    const outcome = await call(server.client, "read_file", { path: "blob.bin" });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain("binary");
  });

  it("searches neither through the escaping symlink nor big or binary files", async () => {
    const outcome = await call(server.client, "search_files", { query: "secret" });
    expect(outcome.isError).toBe(false);
    expect(outcome.structured).toMatchObject({ matches: [], truncated: false, skippedFiles: 2 });
  });
});

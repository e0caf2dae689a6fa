// "files" — a read-only stdio MCP server over one folder, shipped as a demo.
// Run: node --import tsx demo-servers/files.ts [root]   (or FILES_ROOT=<root>; default: demo-servers/sandbox)
// stdout carries the protocol: anything human-readable goes to stderr.
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { resolveInsideRoot, toDisplayPath } from "./sandbox-path.js";
import { looksBinary, searchFiles } from "./search-files.js";

const MAX_FILE_BYTES = 256 * 1024;
const MAX_SEARCH_MATCHES = 50;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const realRoot = await openRoot();
const server = new McpServer({ name: "files", version: "0.1.0" });

const entrySchema = z.object({
  name: z.string(),
  type: z.enum(["file", "directory", "symlink", "other"]),
  size: z.number().int().nonnegative().optional().describe("bytes, for regular files"),
});
type Entry = z.infer<typeof entrySchema>;

server.registerTool(
  "list_directory",
  {
    title: "List directory",
    description:
      "Lists a folder inside the files root: each entry's name, type and size in bytes (for files).",
    inputSchema: {
      path: z.string().default(".").describe('folder relative to the files root; "." is the root'),
    },
    outputSchema: { path: z.string(), entries: z.array(entrySchema) },
    annotations: READ_ONLY,
  },
  ({ path: requested }) =>
    withFsErrors(requested, async () => {
      const dir = await resolveInsideRoot(realRoot, requested);
      if (!(await stat(dir)).isDirectory()) return errorResult(`not a directory: ${requested}`);
      const entries = await Promise.all(
        (await readdir(dir, { withFileTypes: true })).map(async (dirent): Promise<Entry> => {
          if (dirent.isDirectory()) return { name: dirent.name, type: "directory" };
          if (dirent.isSymbolicLink()) return { name: dirent.name, type: "symlink" };
          if (!dirent.isFile()) return { name: dirent.name, type: "other" };
          const info = await lstat(path.join(dir, dirent.name));
          return { name: dirent.name, type: "file", size: info.size };
        }),
      );
      // Folders first, then by name: the order people expect from a file browser.
      entries.sort(
        (a, b) =>
          Number(b.type === "directory") - Number(a.type === "directory") || a.name.localeCompare(b.name),
      );
      const shown = toDisplayPath(realRoot, dir);
      const lines = entries.map(describeEntry);
      return {
        content: [
          { type: "text", text: lines.length > 0 ? `${shown}:\n${lines.join("\n")}` : `${shown} is empty` },
        ],
        structuredContent: { path: shown, entries },
      };
    }),
);

server.registerTool(
  "read_file",
  {
    title: "Read file",
    description: `Returns the text of a file inside the files root. Files over ${MAX_FILE_BYTES / 1024} KiB and binary files are refused.`,
    inputSchema: { path: z.string().describe("file path relative to the files root") },
    annotations: READ_ONLY,
  },
  ({ path: requested }) =>
    withFsErrors(requested, async () => {
      const file = await resolveInsideRoot(realRoot, requested);
      const info = await stat(file);
      if (info.isDirectory()) return errorResult(`${requested} is a directory: use list_directory`);
      // Also refuses FIFOs and devices, which could block the read forever.
      if (!info.isFile()) return errorResult(`${requested} is not a regular file`);
      if (info.size > MAX_FILE_BYTES) {
        return errorResult(
          `${requested} is too large to read (${info.size} bytes; the limit is ${MAX_FILE_BYTES / 1024} KiB)`,
        );
      }
      const buffer = await readFile(file);
      if (looksBinary(buffer))
        return errorResult(`${requested} looks like a binary file: read_file returns text only`);
      return { content: [{ type: "text", text: buffer.toString("utf8") }] };
    }),
);

server.registerTool(
  "search_files",
  {
    title: "Search files",
    description:
      "Finds files and folders whose name contains the query, and lines of text files that contain it " +
      `(case-insensitive). Returns at most ${MAX_SEARCH_MATCHES} matches; skips binary files and files over ` +
      `${MAX_FILE_BYTES / 1024} KiB; does not follow symlinks.`,
    inputSchema: {
      query: z.string().min(1).max(200).describe("text to look for, case-insensitive"),
      path: z.string().default(".").describe("folder to search in, relative to the files root"),
    },
    outputSchema: {
      query: z.string(),
      matches: z.array(
        z.object({
          path: z.string(),
          kind: z.enum(["name", "content"]),
          line: z.number().int().positive().optional(),
          preview: z.string().optional(),
        }),
      ),
      truncated: z.boolean(),
      skippedFiles: z.number().int().nonnegative(),
    },
    annotations: READ_ONLY,
  },
  ({ query, path: requested }) =>
    withFsErrors(requested, async () => {
      const start = await resolveInsideRoot(realRoot, requested);
      if (!(await stat(start)).isDirectory()) return errorResult(`not a directory: ${requested}`);
      const outcome = await searchFiles({
        realRoot,
        start,
        query,
        maxMatches: MAX_SEARCH_MATCHES,
        maxFileBytes: MAX_FILE_BYTES,
      });
      const lines = outcome.matches.map((m) =>
        m.kind === "name" ? `${m.path} (name)` : `${m.path}:${m.line}: ${m.preview}`,
      );
      if (lines.length === 0) lines.push(`no matches for "${query}"`);
      if (outcome.truncated)
        lines.push(`(stopped after ${MAX_SEARCH_MATCHES} matches; narrow the query or the path)`);
      if (outcome.skippedFiles > 0)
        lines.push(`(${outcome.skippedFiles} binary or oversized files not searched)`);
      return {
        content: [{ type: "text", text: lines.join("\n") }],
        structuredContent: { query, ...outcome },
      };
    }),
);

function describeEntry(entry: Entry): string {
  if (entry.type === "directory") return `[dir]  ${entry.name}/`;
  if (entry.type === "file") return `[file] ${entry.name} (${entry.size} bytes)`;
  return `[${entry.type}] ${entry.name}`;
}

/**
 * Turns failures into `isError` results the model can act on. Node's own messages are not
 * passed through: they name absolute host paths, which the model has no business seeing.
 */
async function withFsErrors(requested: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined && error instanceof Error) return errorResult(error.message); // ours, e.g. outside the root
    switch (code) {
      case "ENOENT":
        return errorResult(`no such file or directory: ${requested}`);
      case "ENOTDIR":
        return errorResult(`not a directory: ${requested}`);
      case "EACCES":
      case "EPERM":
        return errorResult(`permission denied: ${requested}`);
      case "ELOOP":
        return errorResult(`too many levels of symbolic links: ${requested}`);
      default:
        console.error("files: unexpected error", error);
        return errorResult(`cannot access ${requested} (${code ?? "unknown error"})`);
    }
  }
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** The root comes from argv, then FILES_ROOT, then the sample folder next to this script. */
async function openRoot(): Promise<string> {
  const configured = [process.argv[2], process.env.FILES_ROOT].find(
    (value) => value !== undefined && value !== "",
  );
  const root = configured ? path.resolve(configured) : fileURLToPath(new URL("./sandbox", import.meta.url));
  try {
    const real = await realpath(root);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  console.error(`files: root ${root} is not a readable folder`);
  process.exit(1);
}

await server.connect(new StdioServerTransport());
console.error(`files: serving ${realRoot} (read-only) on stdio`);

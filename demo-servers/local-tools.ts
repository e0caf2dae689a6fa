// "local-tools" — a tiny stdio MCP server, shipped as a demo: three side-effect-free tools, and
// write_note, whose only effect is a new file in demo-servers/sandbox/notes/inbox (it never
// overwrites or deletes). Switchboard classifies the first three as read at first run and leaves
// write_note unclassified, so calling it shows the approval flow.
// Run: node --import tsx demo-servers/local-tools.ts
// stdout carries the protocol: anything human-readable goes to stderr.
import { constants } from "node:fs";
import { access, mkdir, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const server = new McpServer({ name: "local-tools", version: "0.1.0" });

server.registerTool(
  "current_time",
  {
    title: "Current time",
    description:
      "Returns the current time as an ISO 8601 UTC timestamp and as local time in an IANA time zone " +
      "(for example Europe/Paris). Without a time zone, the server's own zone is used.",
    inputSchema: {
      timeZone: z
        .string()
        .optional()
        .describe("IANA time zone name such as America/New_York; defaults to the server's zone"),
    },
    outputSchema: {
      iso: z.string().describe("current instant, ISO 8601 in UTC"),
      timeZone: z.string(),
      utcOffset: z.string().describe('offset from UTC in that zone, e.g. "+02:00"'),
      local: z.string().describe("human-readable local date and time in that zone"),
    },
    // Not idempotent: the answer changes every call, though nothing is modified.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  ({ timeZone }) => {
    const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date();
    let local: string;
    let utcOffset: string;
    try {
      local = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        dateStyle: "full",
        timeStyle: "long",
      }).format(now);
      utcOffset = formatUtcOffset(now, zone);
    } catch {
      // Intl throws a RangeError whose wording varies by engine; give the caller a stable one.
      return errorResult(`unknown time zone "${zone}": use an IANA name such as Europe/Paris or UTC`);
    }
    const iso = now.toISOString();
    return {
      content: [{ type: "text", text: `${iso} (UTC)\n${local} in ${zone} (UTC${utcOffset})` }],
      structuredContent: { iso, timeZone: zone, utcOffset, local },
    };
  },
);

server.registerTool(
  "echo",
  {
    title: "Echo",
    description: "Returns the given text unchanged. Handy for checking that a connection works end to end.",
    inputSchema: { text: z.string().describe("text to send back") },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);

server.registerTool(
  "word_count",
  {
    title: "Word count",
    description:
      "Counts words (runs of non-whitespace), characters (as a reader sees them, so an emoji counts once) " +
      "and lines in a text.",
    inputSchema: { text: z.string().describe("text to count") },
    outputSchema: {
      words: z.number().int().nonnegative(),
      characters: z.number().int().nonnegative(),
      lines: z.number().int().nonnegative(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  ({ text }) => {
    const counts = countText(text);
    return {
      content: [
        {
          type: "text",
          text: `${counts.words} words, ${counts.characters} characters, ${counts.lines} lines`,
        },
      ],
      structuredContent: counts,
    };
  },
);

// Beside this script, whatever the working folder: the files demo server shows it as notes/inbox.
const inbox = fileURLToPath(new URL("./sandbox/notes/inbox/", import.meta.url));
// Run as an unprivileged user (Switchboard started as root runs its stdio servers as `nobody`), the
// project folder is not writable: the notes then go to a folder of the temporary directory.
const fallbackInbox = path.join(tmpdir(), "switchboard-demo-notes");
// Bounds on what a caller can make this write: a demo must not be able to fill a disk.
const MAX_NOTE_CHARS = 10_000;
const MAX_NOTES = 1000;

async function writableInbox(): Promise<{ folder: string; shown: string }> {
  try {
    await mkdir(inbox, { recursive: true });
    await access(inbox, constants.W_OK);
    return { folder: inbox, shown: "notes/inbox" };
  } catch {
    await mkdir(fallbackInbox, { recursive: true, mode: 0o700 });
    return { folder: fallbackInbox, shown: fallbackInbox };
  }
}

server.registerTool(
  "write_note",
  {
    title: "Write a note",
    description:
      "Saves a new Markdown note in the sandbox's notes/inbox folder (readable with the files server). " +
      "Never overwrites: a note whose name is taken gets a number.",
    inputSchema: {
      title: z.string().min(1).max(80).describe("the note's title, also its file name"),
      text: z.string().max(MAX_NOTE_CHARS).describe("the note, in Markdown"),
    },
    outputSchema: {
      path: z.string().describe("where the note was saved (relative to the sandbox when inside it)"),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async ({ title, text }) => {
    // The file name is built from letters, digits and dashes only: no path can come from the caller.
    const slug =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 60) || "note";
    const { folder, shown } = await writableInbox();
    if ((await readdir(folder)).length >= MAX_NOTES)
      return errorResult(`the inbox holds ${MAX_NOTES} notes already: remove some from ${folder}`);
    for (let n = 1; n <= MAX_NOTES; n++) {
      const name = n === 1 ? `${slug}.md` : `${slug}-${n}.md`;
      try {
        await writeFile(path.join(folder, name), `# ${title}\n\n${text}\n`, { flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
        throw error;
      }
      const saved = `${shown}/${name}`;
      return { content: [{ type: "text", text: `Saved ${saved}` }], structuredContent: { path: saved } };
    }
    return errorResult(`too many notes named "${slug}": pick another title`);
  },
);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function countText(text: string): { words: number; characters: number; lines: number } {
  const words = text.split(/\s+/).filter((word) => word.length > 0).length;
  let characters = 0;
  for (const _ of graphemes.segment(text)) characters++;
  // Count lines the way an editor shows them: a final line break does not start a new line.
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  const endsWithBreak = /(\r\n|\r|\n)$/.test(text);
  const lines = text.length === 0 ? 0 : breaks + (endsWithBreak ? 0 : 1);
  return { words, characters, lines };
}

function formatUtcOffset(date: Date, timeZone: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(date)
    .find((part) => part.type === "timeZoneName")?.value;
  // "GMT+05:30" → "+05:30"; plain "GMT" means no offset.
  const offset = name?.replace(/^GMT/, "") ?? "";
  return offset === "" ? "+00:00" : offset;
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

await server.connect(new StdioServerTransport());
console.error("local-tools: ready on stdio");

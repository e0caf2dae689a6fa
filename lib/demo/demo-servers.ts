import path from "node:path";
import type { EffectClass } from "@/db/schema";
import type { ServerConfigInput } from "@/lib/servers/config-schema";

/**
 * What the demo servers' tools do, as Switchboard knows it from its own sources — not from their
 * annotations, which are a server's untrusted claims. Registered at first run, applied to the
 * first catalog stored for that server only, so a newcomer's first call of a read tool runs at
 * once; local-tools' write_note stays unclassified, so a call of it shows the approval flow.
 */
export const demoToolEffects: Readonly<Record<string, Record<string, EffectClass>>> = {
  "local-tools": { echo: "read", current_time: "read", word_count: "read" },
  files: { list_directory: "read", read_file: "read", search_files: "read" },
};

/**
 * The demo servers shipped in demo-servers/, as registrations. They run through tsx so the
 * TypeScript sources are what runs; paths are absolute because the pool may spawn from anywhere.
 */
export function demoServerConfigs(projectRoot = process.cwd()): ServerConfigInput[] {
  const script = (file: string) => path.join(projectRoot, "demo-servers", file);
  const tsx = ["--import", "tsx"];
  return [
    {
      name: "local-tools",
      displayName: "Local tools",
      description:
        "Demo server: current time, echo, word count, and write_note (adds a note to the sandbox).",
      transport: "stdio",
      command: "node",
      args: [...tsx, script("local-tools.ts")],
      cwd: projectRoot,
    },
    {
      name: "files",
      displayName: "Files (read-only)",
      description: "Demo server: lists, reads and searches files inside demo-servers/sandbox.",
      transport: "stdio",
      command: "node",
      args: [...tsx, script("files.ts"), path.join(projectRoot, "demo-servers", "sandbox")],
      cwd: projectRoot,
    },
  ];
}

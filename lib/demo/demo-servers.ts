import path from "node:path";
import type { ServerConfigInput } from "@/lib/servers/config-schema";

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
      description: "Demo server: current time, echo and word count.",
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

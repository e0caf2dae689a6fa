import type { Transport } from "@/lib/servers/config-schema";

/**
 * The MCP client configuration files Switchboard reads and writes. Three share the `mcpServers`
 * object (Claude Desktop, Claude Code's `.mcp.json`, Cursor's `mcp.json`); VS Code uses `servers`
 * plus `inputs` (values it prompts for).
 */
export const clientFormats = ["claude-desktop", "claude-code", "cursor", "vscode"] as const;
export type ClientFormat = (typeof clientFormats)[number];

export const importFormats = ["auto", ...clientFormats] as const;
export type ImportFormat = (typeof importFormats)[number];

export const formatLabels: Record<ClientFormat, string> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
};

/** Where each client reads its configuration (shown with exports). */
export const formatFileNames: Record<ClientFormat, string> = {
  "claude-desktop": "claude_desktop_config.json",
  "claude-code": ".mcp.json",
  cursor: ".cursor/mcp.json",
  vscode: ".vscode/mcp.json",
};

/**
 * One server as a client file describes it, before Switchboard's rules apply: values are the raw
 * strings of the file (placeholders such as `${VAR}` or `${input:id}` included).
 */
export type ClientEntry = {
  /** the entry's key in the file */
  source: string;
  transport: Transport | null;
  command: string | null;
  args: string[];
  cwd: string | null;
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  /**
   * OAuth settings the entry states itself: Claude Code's `oauth` ({clientId, scopes}) or Cursor's
   * `auth` ({CLIENT_ID, CLIENT_SECRET, scopes}); raw strings, like every other value here.
   */
  oauth?: { clientId: string | null; clientSecret: string | null; scopes: string[] };
  disabled: boolean;
  /** why this entry cannot be imported (shape problems); empty when it can */
  problems: string[];
  /** things that are imported differently from how the client treats them */
  warnings: string[];
};

/** A VS Code `inputs` item: a value VS Code asks the user for, referenced as `${input:id}`. */
export type ClientInput = { id: string; description: string | null; password: boolean };

export type ClientConfig = { format: ClientFormat; entries: ClientEntry[]; inputs: ClientInput[] };

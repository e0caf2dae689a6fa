/**
 * How Claude Code names an MCP tool in its permission rules and tool list: `mcp__<server>__<tool>`,
 * each part with every character outside [A-Za-z0-9_-] replaced by `_` (read from Claude Code
 * 2.1's bundle, its `normalizeMcpServerName`; `get.weather` → `get_weather`). A rule written with
 * the original name never matches, so the export writes rules through this. One `_` per UTF-16
 * code unit, as Claude Code's own regex does (no `u` flag): `é` → `_`, an emoji → `__`.
 *
 * Claude Code also collapses underscores for servers named "claude.ai …" (its own connectors);
 * the gateway's server name is never one of those, so that case is left out.
 */

export function claudeCodeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

export function claudeCodeToolRule(server: string, tool: string): string {
  return `mcp__${claudeCodeName(server)}__${claudeCodeName(tool)}`;
}

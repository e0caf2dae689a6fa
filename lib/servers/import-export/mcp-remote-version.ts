/**
 * The mcp-remote the Claude Desktop export runs: pinned to the version the client suite tests
 * (tests/clients, which imports this module alone — it must stay free of server code), so an
 * unreviewed release (npx -y fetches whatever is newest) never runs with the person's key.
 */
export const MCP_REMOTE_VERSION = "0.15.1";

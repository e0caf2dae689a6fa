import { describe, expect, it } from "vitest";
import { gatewayScopeOf } from "@/lib/gateway/server/tools";

describe("the gateway's own entry (server.mjs): which endpoint a path names", () => {
  it("maps /mcp to every server, /mcp/discover to discovery and /mcp/servers/<name> to that one, decoded", () => {
    expect(gatewayScopeOf("/mcp")).toBe("all");
    expect(gatewayScopeOf("/mcp/")).toBe("all");
    expect(gatewayScopeOf("/mcp/discover")).toBe("discover");
    expect(gatewayScopeOf("/mcp/servers/local-tools")).toEqual({ server: "local-tools" });
    expect(gatewayScopeOf("/mcp/servers/my%20server")).toEqual({ server: "my server" });
  });

  it("names no endpoint for anything else, so it is a 404 rather than a guess", () => {
    for (const path of [
      "/mcp/servers",
      "/mcp/servers/",
      "/mcp/servers/a/b",
      "/mcpx",
      "/mcp/other",
      "/mcp/discover/more",
      "/mcp/servers/%E0%A4%A",
    ]) {
      expect(gatewayScopeOf(path), path).toBeUndefined();
    }
  });
});

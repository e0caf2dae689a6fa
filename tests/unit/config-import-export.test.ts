import { describe, expect, it } from "vitest";
import { type ClientFormat, clientFormats } from "@/lib/servers/import-export/client-formats";
import {
  claudeCodePermissions,
  gatewayEntry,
  gatewayInputs,
} from "@/lib/servers/import-export/gateway-config";
import { parseJsonText } from "@/lib/servers/import-export/parse-json-text";
import { planImport } from "@/lib/servers/import-export/plan-import";
import { readClientConfig } from "@/lib/servers/import-export/read-client-config";
import { renderClientConfig } from "@/lib/servers/import-export/render-client-config";

/** A client-side placeholder such as ${VAR}, written without tripping the template-string lint. */
const ref = (inner: string) => `\${${inner}}`;

const gatewayUrl = "http://127.0.0.1:3000/mcp";
const exported = (format: ClientFormat, url = gatewayUrl) =>
  renderClientConfig(format, { entries: [gatewayEntry(format, url)], inputs: gatewayInputs });

describe("the exported gateway configuration", () => {
  it.each([
    [
      "claude-code",
      {
        mcpServers: {
          switchboard: {
            type: "http",
            url: gatewayUrl,
            headers: { Authorization: `Bearer ${ref("SWITCHBOARD_API_KEY")}` },
          },
        },
      },
    ],
    [
      "cursor",
      {
        mcpServers: {
          switchboard: {
            url: gatewayUrl,
            headers: { Authorization: `Bearer ${ref("env:SWITCHBOARD_API_KEY")}` },
          },
        },
      },
    ],
    [
      "vscode",
      {
        inputs: [
          {
            type: "promptString",
            id: "switchboard-api-key",
            description: "Switchboard API key (gateway scope)",
            password: true,
          },
        ],
        servers: {
          switchboard: {
            type: "http",
            url: gatewayUrl,
            headers: { Authorization: `Bearer ${ref("input:switchboard-api-key")}` },
          },
        },
      },
    ],
    [
      "claude-desktop",
      {
        mcpServers: {
          switchboard: {
            command: "npx",
            args: [
              "-y",
              "mcp-remote",
              gatewayUrl,
              "--header",
              `Authorization:${ref("SWITCHBOARD_AUTH_HEADER")}`,
            ],
            env: { SWITCHBOARD_AUTH_HEADER: "Bearer <SWITCHBOARD_API_KEY>" },
          },
        },
      },
    ],
  ] as const)("%s: the gateway with a key placeholder, never a key", (format, expected) => {
    expect(exported(format)).toEqual(expected);
  });

  it("claude-desktop: mcp-remote is told to allow plain http to a non-local host", () => {
    const config = exported("claude-desktop", "http://switchboard.internal:3000/mcp") as {
      mcpServers: { switchboard: { args: string[] } };
    };
    expect(config.mcpServers.switchboard.args).toContain("--allow-http");
    expect(JSON.stringify(exported("claude-desktop", "https://sb.example.com/mcp"))).not.toContain(
      "--allow-http",
    );
  });

  // Round trip: what we export, our own importer reads back as the gateway with its key as a reference.
  it.each(clientFormats)("%s: reading the export back finds the gateway and its key reference", (format) => {
    const client = readClientConfig(parseJsonText(JSON.stringify(exported(format))));
    expect(client.format).toBe(format);
    const [plan] = planImport(client);
    expect(plan?.problems).toEqual([]);
    const expected = {
      "claude-code": {
        auth: { type: "bearer", credential: { fromEnv: "SWITCHBOARD_API_KEY" } },
        url: gatewayUrl,
      },
      cursor: { auth: { type: "bearer", credential: { fromEnv: "SWITCHBOARD_API_KEY" } }, url: gatewayUrl },
      vscode: { auth: { type: "bearer", credential: { secret: "switchboard-api-key" } }, url: gatewayUrl },
      // Claude Desktop's env holds the key itself: on import it moves into a secret.
      "claude-desktop": {
        command: "npx",
        env: { SWITCHBOARD_AUTH_HEADER: { secret: "switchboard-switchboard-auth-header" } },
      },
    }[format];
    expect(plan?.config).toMatchObject({ name: "switchboard", ...expected });
  });
});

describe("Claude Code permissions from effect classes", () => {
  it("allows read tools, asks for external-write (and so unclassified) and destructive ones", () => {
    const permissions = claudeCodePermissions([
      { gatewayName: "files__read_file", effect: "read" },
      { gatewayName: "github__create_issue", effect: "external-write" },
      { gatewayName: "db__drop_table", effect: "destructive" },
      { gatewayName: "notes__append", effect: "write" },
      { gatewayName: "local-tools__echo", effect: "read" },
    ]);
    expect(permissions).toEqual({
      allow: ["mcp__switchboard__files__read_file", "mcp__switchboard__local-tools__echo"],
      ask: ["mcp__switchboard__db__drop_table", "mcp__switchboard__github__create_issue"],
    });
  });

  it("with no tools there is nothing to allow or ask", () => {
    expect(claudeCodePermissions([])).toEqual({ allow: [], ask: [] });
  });
});

import { describe, expect, it } from "vitest";
import { claudeCodeName, claudeCodeToolRule } from "@/lib/servers/import-export/claude-code-names";
import { type ClientFormat, clientFormats } from "@/lib/servers/import-export/client-formats";
import {
  claudeCodePermissions,
  gatewayEntry,
  gatewayInputs,
  MCP_REMOTE_VERSION,
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
              "mcp-remote@0.15.1",
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
  const meta = [
    "mcp__switchboard__switchboard__describe_tool",
    "mcp__switchboard__switchboard__get_call",
    "mcp__switchboard__switchboard__list_servers",
    "mcp__switchboard__switchboard__search_tools",
    "mcp__switchboard__switchboard__wait_call",
  ];

  it("allows read tools and the meta tools, asks for external-write (and so unclassified) and destructive ones", () => {
    const permissions = claudeCodePermissions([
      { gatewayName: "files__read_file", effect: "read" },
      { gatewayName: "github__create_issue", effect: "external-write" },
      { gatewayName: "db__drop_table", effect: "destructive" },
      { gatewayName: "notes__append", effect: "write" },
      { gatewayName: "local-tools__echo", effect: "read" },
    ]);
    expect(permissions).toEqual({
      allow: ["mcp__switchboard__files__read_file", "mcp__switchboard__local-tools__echo", ...meta],
      ask: ["mcp__switchboard__db__drop_table", "mcp__switchboard__github__create_issue"],
    });
  });

  it("with no tools only the meta tools are allowed", () => {
    expect(claudeCodePermissions([])).toEqual({ allow: meta, ask: [] });
  });

  it("writes names as Claude Code spells them, or the rule would never match", () => {
    const permissions = claudeCodePermissions([
      { gatewayName: "weather__get.weather", effect: "read" },
      { gatewayName: "my server__drop table!", effect: "destructive" },
    ]);
    expect(permissions.allow).toContain("mcp__switchboard__weather__get_weather");
    expect(permissions.ask).toEqual(["mcp__switchboard__my_server__drop_table_"]);
    expect(JSON.stringify(permissions)).not.toMatch(/[^A-Za-z0-9_\-",:[\]{}]/);
  });

  it("never allows a spelling that a writing tool shares with a read one", () => {
    const permissions = claudeCodePermissions([
      { gatewayName: "db__rows.read", effect: "read" },
      { gatewayName: "db__rows_read", effect: "destructive" },
      { gatewayName: "notes__list.all", effect: "read" },
      { gatewayName: "notes__list_all", effect: "write" },
    ]);
    expect(permissions).toEqual({ allow: meta, ask: ["mcp__switchboard__db__rows_read"] });
  });
});

describe("Claude Code's name normalisation", () => {
  it.each([
    ["get.weather", "get_weather"],
    ["already_fine-42", "already_fine-42"],
    ["a b/c:d@e", "a_b_c_d_e"],
    ["café", "caf_"],
    // Claude Code's regex works on UTF-16 code units: a character outside the BMP is two.
    ["rocket🚀", "rocket__"],
  ])("%s → %s", (name, expected) => {
    expect(claudeCodeName(name)).toBe(expected);
  });

  it("builds mcp__<server>__<tool>", () => {
    expect(claudeCodeToolRule("switchboard", "weather__get.weather")).toBe(
      "mcp__switchboard__weather__get_weather",
    );
  });
});

describe("the Claude Desktop bridge", () => {
  it("runs the mcp-remote version the client suite tests, never whatever npm has newest", () => {
    const config = exported("claude-desktop") as { mcpServers: { switchboard: { args: string[] } } };
    expect(MCP_REMOTE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(config.mcpServers.switchboard.args).toContain(`mcp-remote@${MCP_REMOTE_VERSION}`);
    expect(config.mcpServers.switchboard.args).not.toContain("mcp-remote");
  });
});

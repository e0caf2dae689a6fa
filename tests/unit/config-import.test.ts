import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { type ClientFormat, clientFormats } from "@/lib/servers/import-export/client-formats";
import { parseJsonText } from "@/lib/servers/import-export/parse-json-text";
import { type PlannedEntry, planImport } from "@/lib/servers/import-export/plan-import";
import { readClientConfig } from "@/lib/servers/import-export/read-client-config";
import { renderClientConfig } from "@/lib/servers/import-export/render-client-config";
import { looksLikeSecretName } from "@/lib/servers/import-export/secret-hygiene";

const fixtureText = (format: ClientFormat) =>
  readFileSync(path.join(process.cwd(), "tests/fixtures/client-configs", `${format}.json`), "utf8");
const readFixture = (format: ClientFormat) => readClientConfig(parseJsonText(fixtureText(format)));
const byName = (plans: PlannedEntry[], name: string) => {
  const plan = plans.find((p) => p.name === name);
  if (!plan) throw new Error(`no plan named ${name}`);
  return plan;
};

/** What each fixture must turn into: the credential values it holds, and where they must go. */
const expectations: Record<
  ClientFormat,
  {
    names: string[];
    secretValues: string[];
    check: (plans: PlannedEntry[]) => void;
  }
> = {
  "claude-desktop": {
    names: ["github", "filesystem", "postgres"],
    secretValues: ["ghp_fixtureDesktopValue0000000000000000", "fixture-desktop-password"],
    check: (plans) => {
      const github = byName(plans, "github");
      expect(github.createOnly).toEqual({ displayName: "GitHub" });
      expect(github.config).toMatchObject({
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: {
          GITHUB_PERSONAL_ACCESS_TOKEN: { secret: "github-github-personal-access-token" },
          LOG_LEVEL: "debug",
        },
      });
      expect(byName(plans, "postgres").config?.env).toEqual({
        DB_PASSWORD: { secret: "postgres-db-password" },
        DB_HOST: "localhost",
      });
      expect(byName(plans, "filesystem").secretWrites).toEqual([]);
    },
  },
  "claude-code": {
    names: ["sentry", "linear", "airtable"],
    secretValues: ["sntrys_fixtureCodeValue", "lin_fixtureCodeValue"],
    check: (plans) => {
      expect(byName(plans, "sentry").config).toMatchObject({
        transport: "streamable-http",
        url: "https://mcp.sentry.dev/mcp",
        headers: { "X-Org": "acme" },
        auth: { type: "bearer", credential: { secret: "sentry-authorization" } },
      });
      expect(byName(plans, "linear").config).toMatchObject({
        transport: "sse",
        headers: { "X-Api-Key": { secret: "linear-x-api-key" } },
        auth: { type: "none" },
      });
      // ${VAR} was the client's environment: it becomes a reference, not a stored value.
      const airtable = byName(plans, "airtable");
      expect(airtable.config?.env).toEqual({ AIRTABLE_API_KEY: { fromEnv: "AIRTABLE_API_KEY" } });
      expect(airtable.secretWrites).toEqual([]);
      expect(airtable.warnings.join(" ")).toMatch(/Switchboard's own environment/);
    },
  },
  cursor: {
    names: ["stripe", "legacy-events", "brave-search", "internal-api"],
    secretValues: ["sk_test_fixtureCursorValue", "BSA_fixtureCursorValue"],
    check: (plans) => {
      expect(byName(plans, "stripe").config?.auth).toEqual({
        type: "bearer",
        credential: { secret: "stripe-authorization" },
      });
      expect(byName(plans, "legacy-events").transport).toBe("sse");
      expect(byName(plans, "brave-search").config?.env).toEqual({
        BRAVE_API_KEY: { secret: "brave-search-brave-api-key" },
      });
      expect(byName(plans, "internal-api").config?.auth).toEqual({
        type: "bearer",
        credential: { fromEnv: "INTERNAL_TOKEN" },
      });
    },
  },
  vscode: {
    names: ["github", "perplexity", "playwright-browser"],
    secretValues: ["sk-fixtureVscodeValue"],
    check: (plans) => {
      // ${input:x} cannot be prompted for: it references a secret someone must set.
      const github = byName(plans, "github");
      expect(github.config?.auth).toEqual({ type: "bearer", credential: { secret: "github-pat" } });
      expect(github.secretReferences).toEqual([{ name: "github-pat", from: "headers.Authorization" }]);
      const perplexity = byName(plans, "perplexity");
      expect(perplexity.config?.cwd).toBe("/home/me/project");
      expect(perplexity.config?.env).toEqual({
        PERPLEXITY_API_KEY: { secret: "perplexity-key" },
        OPENAI_TOKEN: { secret: "perplexity-openai-token" },
      });
      expect(byName(plans, "playwright-browser").createOnly).toEqual({ displayName: "Playwright Browser" });
    },
  },
};

describe.each(clientFormats)("the %s fixture", (format) => {
  const client = readFixture(format);
  const plans = planImport(client);
  const expected = expectations[format];

  it("is detected as its own format, with every entry importable", () => {
    expect(client.format).toBe(format);
    expect(plans.map((p) => p.name)).toEqual(expected.names);
    expect(plans.flatMap((p) => p.problems)).toEqual([]);
  });

  it("round-trips: written back in its format and read again, nothing changes", () => {
    const written = JSON.stringify(renderClientConfig(format, client));
    expect(readClientConfig(parseJsonText(written), format)).toEqual(client);
    expect(readClientConfig(parseJsonText(written)).format).toBe(format);
  });

  it("moves every credential into a secret; the registrations hold references only", () => {
    const configs = JSON.stringify(plans.map((p) => p.config));
    const written = plans.flatMap((p) => p.secretWrites.map((w) => w.value));
    expect(written.sort()).toEqual([...expected.secretValues].sort());
    for (const value of expected.secretValues) expect(configs).not.toContain(value);
    expected.check(plans);
  });
});

describe("secret hygiene", () => {
  it.each([
    ["GITHUB_TOKEN", true],
    ["api_key", true],
    ["CLIENT_SECRET", true],
    ["DB_PASSWORD", true],
    ["Authorization", true],
    ["X-Auth-User", true],
    ["LOG_LEVEL", false],
    ["HOME", false],
  ])("%s looks secret: %s", (name, expected) => {
    expect(looksLikeSecretName(name)).toBe(expected);
  });

  const planOne = (entry: Record<string, unknown>) =>
    planImport(readClientConfig({ mcpServers: { demo: entry } }))[0] as PlannedEntry;

  it("a non-Bearer Authorization header is kept as a header, its value in a secret", () => {
    const plan = planOne({
      url: "https://x.example.com/mcp",
      headers: { Authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(plan.config).toMatchObject({
      headers: { Authorization: { secret: "demo-authorization" } },
      auth: { type: "none" },
    });
    expect(plan.secretWrites).toEqual([
      { name: "demo-authorization", value: "Basic dXNlcjpwYXNz", from: "headers.Authorization" },
    ]);
  });

  it("empty values and ordinary names stay literal", () => {
    const plan = planOne({ command: "node", env: { API_KEY: "", REGION: "eu" } });
    expect(plan.config?.env).toEqual({ API_KEY: "", REGION: "eu" });
    expect(plan.secretWrites).toEqual([]);
  });

  it("warns about a credential in the arguments, which cannot be a reference", () => {
    const plan = planOne({ command: "npx", args: ["server", "--api-key=abc123"] });
    expect(plan.warnings).toEqual([expect.stringMatching(/args\[1\] looks like it holds a credential/)]);
  });

  it("keeps secret names unique within a server", () => {
    const plan = planOne({ command: "node", env: { API_KEY: "one", api_key: "two" } });
    expect(plan.secretWrites.map((w) => w.name)).toEqual(["demo-api-key", "demo-api-key-2"]);
  });
});

describe("bad input", () => {
  it.each([
    ['{"mcpServers": {}', 1, 18, "the text ends inside an object"],
    ['{\n  "mcpServers": {\n    "a": {"command": "npx"}\n    "b": {}\n  }\n}', 4, 5, "expected , or }"],
    ['{"mcpServers": {"a": {"command": npx}}}', 1, 34, "bare word"],
    ["{'mcpServers': {}}", 1, 2, "double quotes"],
    ["", 1, 1, "empty"],
  ])("%j is refused with its line and column", (text, line, column, reason) => {
    const error = capture(() => parseJsonText(text));
    expect(error.code).toBe("validation");
    expect(error.message).toContain(`line ${line}, column ${column}`);
    expect(error.message).toContain(reason);
  });

  it("accepts JSONC: comments and trailing commas, as VS Code writes them", () => {
    const text = '{\n  // mine\n  "servers": { /* one */ "a": {"command": "node", "args": ["x",],}, },\n}';
    expect(readClientConfig(parseJsonText(text)).entries[0]).toMatchObject({ command: "node", args: ["x"] });
  });

  it.each([
    [[], "must be a JSON object"],
    [{ something: {} }, "No servers found"],
    [{ mcpServers: [] }, "must be an object of servers"],
  ])("a file without servers is refused: %j", (value, message) => {
    expect(capture(() => readClientConfig(value)).message).toContain(message);
  });

  it("a format that does not fit the file is refused, naming both", () => {
    const error = capture(() => readClientConfig({ mcpServers: { a: { command: "x" } } }, "vscode"));
    expect(error.message).toMatch(/not a VS Code configuration: it has "mcpServers"/);
  });

  it("one bad entry is reported on itself; the others still plan", () => {
    const plans = planImport(
      readClientConfig({
        mcpServers: {
          good: { command: "node" },
          empty: {},
          weird: { type: "websocket", url: "wss://x" },
          both: { command: "node", url: "https://x.example.com" },
          badArgs: { command: "node", args: "--flag" },
          "!!!": { command: "node" },
        },
      }),
    );
    const problems = Object.fromEntries(plans.map((p) => [p.source, p.problems.join(" ")]));
    expect(problems).toEqual({
      good: "",
      empty: "The entry has neither a command (stdio) nor a url (HTTP).",
      weird: 'Unknown type "websocket": use stdio, http or sse.',
      both: 'The entry has both a command and a url: set "type" to say which to use.',
      badArgs: "args must be a list of strings.",
      "!!!": "The name has no letters or digits to make a server name from.",
    });
    expect(plans.find((p) => p.source === "good")?.config).toMatchObject({ name: "good", command: "node" });
  });

  it("two entries that slugify to the same name: the second is refused", () => {
    const plans = planImport(
      readClientConfig({ mcpServers: { "My Server": { command: "a" }, my_server: { command: "b" } } }),
    );
    expect(plans[0]?.problems).toEqual([]);
    expect(plans[1]?.problems).toEqual([
      '"my_server" and "My Server" both become the server name "my-server".',
    ]);
  });
});

function capture(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { serverConfigSchema } from "@/lib/servers/config-schema";
import { humanIssueMessages, validationError } from "@/lib/validation";

const stdio = { name: "github", transport: "stdio", command: "npx" };
const http = { name: "remote", transport: "streamable-http", url: "https://mcp.example.com/mcp" };

const commonDefaults = {
  displayName: null,
  description: null,
  enabled: true,
  connectTimeoutMs: 10_000,
  callTimeoutMs: 30_000,
  healthIntervalSeconds: 60,
  resourceReadsNeedApproval: false,
};

/** zod's stock wording; a person filling in the form should never see it. */
const zodJargon =
  /Invalid input|Invalid key in record|Unrecognized key|expected \w+, received \w+|Too (big|small)/i;

function reject(input: unknown): AppError {
  // The error map parseOrThrow gives every parse: the wording below is Switchboard's, not zod's.
  const result = serverConfigSchema.safeParse(input, { error: humanIssueMessages });
  if (result.success) throw new Error(`expected a rejection, got ${JSON.stringify(result.data)}`);
  return validationError(result.error, "The server configuration");
}

describe("serverConfigSchema accepts", () => {
  const valid: Array<{ name: string; input: Record<string, unknown>; expected: Record<string, unknown> }> = [
    {
      name: "a minimal stdio server, with defaults",
      input: stdio,
      expected: { ...stdio, ...commonDefaults, args: [], cwd: null, env: {} },
    },
    {
      name: "a full stdio server with literal, secret and fromEnv values",
      input: {
        ...stdio,
        displayName: "GitHub",
        description: "Issues and pull requests",
        args: ["-y", "@modelcontextprotocol/server-github"],
        cwd: "/srv/mcp",
        env: { LOG_LEVEL: "info", TOKEN: { secret: "github-token" }, HOME_DIR: { fromEnv: "HOME" } },
        enabled: false,
        connectTimeoutMs: 500,
        callTimeoutMs: 3_600_000,
        healthIntervalSeconds: 86_400,
      },
      expected: {
        displayName: "GitHub",
        args: ["-y", "@modelcontextprotocol/server-github"],
        cwd: "/srv/mcp",
        env: { LOG_LEVEL: "info", TOKEN: { secret: "github-token" }, HOME_DIR: { fromEnv: "HOME" } },
        enabled: false,
        connectTimeoutMs: 500,
        callTimeoutMs: 3_600_000,
        healthIntervalSeconds: 86_400,
      },
    },
    {
      name: "a minimal streamable-http server, with defaults",
      input: http,
      expected: { ...http, ...commonDefaults, headers: {}, auth: { type: "none" } },
    },
    {
      name: "an sse server with headers and bearer auth",
      input: {
        name: "events",
        transport: "sse",
        url: "http://127.0.0.1:9000/sse",
        headers: { "X-Org": "acme" },
        auth: { type: "bearer", credential: { secret: "events-token" } },
      },
      expected: {
        transport: "sse",
        url: "http://127.0.0.1:9000/sse",
        headers: { "X-Org": "acme" },
        auth: { type: "bearer", credential: { secret: "events-token" } },
      },
    },
    {
      name: "api_key auth, defaulting the header name",
      input: { ...http, auth: { type: "api_key", credential: { fromEnv: "REMOTE_KEY" } } },
      expected: { auth: { type: "api_key", headerName: "X-API-Key", credential: { fromEnv: "REMOTE_KEY" } } },
    },
    {
      name: "a URL with surrounding spaces, trimmed",
      input: { ...http, url: "  https://mcp.example.com/mcp  " },
      expected: { url: "https://mcp.example.com/mcp" },
    },
    {
      name: "an '@' in the URL's path or query (not credentials)",
      input: { ...http, url: "https://mcp.example.com/u/@me?mail=a@b.c" },
      expected: { url: "https://mcp.example.com/u/@me?mail=a@b.c" },
    },
    {
      name: "empty displayName and description, stored as null",
      input: { ...stdio, displayName: "  ", description: "" },
      expected: { displayName: null, description: null },
    },
    { name: "a one-character name", input: { ...stdio, name: "a" }, expected: { name: "a" } },
    {
      name: "a 40-character name",
      input: { ...stdio, name: "a".repeat(40) },
      expected: { name: "a".repeat(40) },
    },
    {
      name: "digits and single dashes",
      input: { ...stdio, name: "mcp-2-go" },
      expected: { name: "mcp-2-go" },
    },
  ];

  it.each(valid)("$name", ({ input, expected }) => {
    const result = serverConfigSchema.safeParse(input);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toMatchObject(expected);
  });
});

describe("serverConfigSchema rejects, naming the field", () => {
  const invalid: Array<{ name: string; input: unknown; field: string; message: RegExp }> = [
    // transport-specific requirements
    {
      name: "stdio without command",
      input: { name: "a", transport: "stdio" },
      field: "command",
      message: /needs a command/,
    },
    {
      name: "stdio with a blank command",
      input: { ...stdio, command: "   " },
      field: "command",
      message: /needs a command/,
    },
    {
      name: "a multi-line command",
      input: { ...stdio, command: "node\nrm -rf /" },
      field: "command",
      message: /one line/,
    },
    {
      name: "streamable-http without url",
      input: { name: "a", transport: "streamable-http" },
      field: "url",
      message: /url is required/,
    },
    {
      name: "sse without url",
      input: { name: "a", transport: "sse" },
      field: "url",
      message: /url is required/,
    },
    {
      name: "a malformed url",
      input: { ...http, url: "not a url" },
      field: "url",
      message: /http:\/\/ or https:\/\//,
    },
    {
      name: "an ftp url",
      input: { ...http, url: "ftp://files.example.com/mcp" },
      field: "url",
      message: /http:\/\/ or https:\/\//,
    },
    {
      name: "a url with user and password",
      input: { ...http, url: "https://me:pw@mcp.example.com/mcp" },
      field: "url",
      message: /credentials/,
    },
    {
      name: "a url with a user name",
      input: { ...http, url: "https://token@mcp.example.com/mcp" },
      field: "url",
      message: /credentials/,
    },
    {
      name: "a url over 2048 characters",
      input: { ...http, url: `https://x.com/${"a".repeat(2040)}` },
      field: "url",
      message: /2048/,
    },
    {
      name: "a url given for a stdio server",
      input: { ...stdio, url: "https://mcp.example.com/mcp" },
      field: "url",
      message: /Unknown field "url"/,
    },
    {
      name: "a command given for an HTTP server",
      input: { ...http, command: "node" },
      field: "command",
      message: /Unknown field "command"/,
    },
    {
      name: "a missing transport",
      input: { name: "a", command: "node" },
      field: "transport",
      message: /stdio, streamable-http or sse/,
    },
    {
      name: "an unknown transport",
      input: { ...stdio, transport: "websocket" },
      field: "transport",
      message: /stdio, streamable-http or sse/,
    },

    // names
    {
      name: "a missing name",
      input: { transport: "stdio", command: "node" },
      field: "name",
      message: /name is required/,
    },
    { name: "an uppercase name", input: { ...stdio, name: "GitHub" }, field: "name", message: /lowercase/ },
    {
      name: "a name with an underscore",
      input: { ...stdio, name: "git_hub" },
      field: "name",
      message: /lowercase letters, digits and dashes/,
    },
    {
      name: "a name with a leading dash",
      input: { ...stdio, name: "-github" },
      field: "name",
      message: /starting and ending/,
    },
    {
      name: "a name with a trailing dash",
      input: { ...stdio, name: "github-" },
      field: "name",
      message: /starting and ending/,
    },
    {
      name: "a 41-character name",
      input: { ...stdio, name: "a".repeat(41) },
      field: "name",
      message: /1–40/,
    },
    { name: "an empty name", input: { ...stdio, name: "" }, field: "name", message: /1–40/ },
    {
      name: "the reserved name switchboard",
      input: { ...stdio, name: "switchboard" },
      field: "name",
      message: /reserved/,
    },
    {
      name: "a double dash (clashes with <server>__<tool>)",
      input: { ...stdio, name: "a--b" },
      field: "name",
      message: /double dash/,
    },

    // unknown fields
    {
      name: "an unknown top-level field",
      input: { ...stdio, colour: "blue" },
      field: "colour",
      message: /Unknown field "colour"/,
    },
    {
      name: "an unknown field in a value reference",
      input: { ...stdio, env: { A: { secret: "x", extra: 1 } } },
      field: "env.A.extra",
      message: /Unknown field "extra"/,
    },
    {
      name: "an unknown field in auth",
      input: { ...http, auth: { type: "none", token: "x" } },
      field: "auth.token",
      message: /Unknown field "token"/,
    },

    // env, headers and value references
    {
      name: "an env var name starting with a digit",
      input: { ...stdio, env: { "1TOKEN": "x" } },
      field: "env.1TOKEN",
      message: /environment variable/i,
    },
    {
      name: "an env var name with a dash",
      input: { ...stdio, env: { "MY-TOKEN": "x" } },
      field: "env.MY-TOKEN",
      message: /environment variable/i,
    },
    {
      name: "a header name with a space",
      input: { ...http, headers: { "X Org": "acme" } },
      field: "headers.X Org",
      message: /header name/i,
    },
    {
      name: "an empty secret reference",
      input: { ...stdio, env: { TOKEN: { secret: "" } } },
      field: "env.TOKEN.secret",
      message: /Secret names/,
    },
    {
      name: "a secret reference with a slash",
      input: { ...stdio, env: { TOKEN: { secret: "a/b" } } },
      field: "env.TOKEN.secret",
      message: /Secret names/,
    },
    {
      name: "a reference of an unknown kind",
      input: { ...stdio, env: { TOKEN: { other: 1 } } },
      field: "env.TOKEN",
      message: /\{"secret": NAME\} or \{"fromEnv": VAR\}/,
    },
    {
      name: "both secret and fromEnv in one reference",
      input: { ...stdio, env: { TOKEN: { secret: "a", fromEnv: "B" } } },
      field: "env.TOKEN",
      message: /\{"secret": NAME\} or \{"fromEnv": VAR\}/,
    },
    {
      name: "a number as a value",
      input: { ...stdio, env: { PORT: 8080 } },
      field: "env.PORT",
      message: /Use a string/,
    },
    {
      name: "a bad fromEnv variable name",
      input: { ...stdio, env: { HOME_DIR: { fromEnv: "1HOME" } } },
      field: "env.HOME_DIR.fromEnv",
      message: /Environment variable names/,
    },
    {
      name: "a literal value over 8 KiB",
      input: { ...stdio, env: { BIG: "x".repeat(8193) } },
      field: "env.BIG",
      message: /8 KiB/,
    },
    {
      name: "a header value of the wrong kind",
      input: { ...http, headers: { "X-Org": true } },
      field: "headers.X-Org",
      message: /Use a string/,
    },
    {
      name: "an unknown auth type",
      input: { ...http, auth: { type: "magic" } },
      field: "auth.type",
      message: /none, bearer, api_key, custom_header, oauth/,
    },
    {
      name: "bearer auth without a credential",
      input: { ...http, auth: { type: "bearer" } },
      field: "auth.credential",
      message: /Use a string/,
    },
    {
      name: "custom_header auth without a header name",
      input: { ...http, auth: { type: "custom_header", credential: "x" } },
      field: "auth.headerName",
      message: /header/i,
    },

    // numbers
    {
      name: "connectTimeoutMs below 500",
      input: { ...stdio, connectTimeoutMs: 499 },
      field: "connectTimeoutMs",
      message: /at least 500/,
    },
    {
      name: "connectTimeoutMs above 5 minutes",
      input: { ...stdio, connectTimeoutMs: 300_001 },
      field: "connectTimeoutMs",
      message: /at most 300000/,
    },
    {
      name: "callTimeoutMs below 500",
      input: { ...stdio, callTimeoutMs: 0 },
      field: "callTimeoutMs",
      message: /at least 500/,
    },
    {
      name: "callTimeoutMs above an hour",
      input: { ...stdio, callTimeoutMs: 3_600_001 },
      field: "callTimeoutMs",
      message: /at most 3600000/,
    },
    {
      name: "healthIntervalSeconds below 5",
      input: { ...stdio, healthIntervalSeconds: 4 },
      field: "healthIntervalSeconds",
      message: /at least 5/,
    },
    {
      name: "healthIntervalSeconds above a day",
      input: { ...stdio, healthIntervalSeconds: 86_401 },
      field: "healthIntervalSeconds",
      message: /at most 86400/,
    },
    {
      name: "a negative timeout",
      input: { ...stdio, connectTimeoutMs: -1 },
      field: "connectTimeoutMs",
      message: /at least 500/,
    },

    // wrong types
    {
      name: "a timeout given as a string",
      input: { ...stdio, connectTimeoutMs: "10000" },
      field: "connectTimeoutMs",
      message: /Expected a number, got a (string|null)/,
    },
    {
      name: "a timeout given as null",
      input: { ...stdio, callTimeoutMs: null },
      field: "callTimeoutMs",
      message: /Expected a number, got a (string|null)/,
    },
    {
      name: "a fractional timeout",
      input: { ...stdio, connectTimeoutMs: 1000.5 },
      field: "connectTimeoutMs",
      message: /milliseconds/,
    },
    {
      name: "enabled given as a string",
      input: { ...stdio, enabled: "yes" },
      field: "enabled",
      message: /true or false/,
    },
    {
      name: "args given as one string",
      input: { ...stdio, args: "-y server" },
      field: "args",
      message: /Expected a list, got a string/,
    },
    {
      name: "a number in args",
      input: { ...stdio, args: ["-p", 8080] },
      field: "args.1",
      message: /Expected a string, got a number/,
    },
    {
      name: "env given as a list",
      input: { ...stdio, env: ["TOKEN=x"] },
      field: "env",
      message: /Expected an object, got a list/,
    },
    {
      name: "displayName given as a number",
      input: { ...stdio, displayName: 42 },
      field: "displayName",
      message: /Expected a string, got a number/,
    },
    {
      name: "cwd given as a number",
      input: { ...stdio, cwd: 1 },
      field: "cwd",
      message: /Expected a string, got a number/,
    },
    {
      name: "a name given as a number",
      input: { ...stdio, name: 42 },
      field: "name",
      message: /Expected a string, got a number/,
    },
    {
      name: "auth given as a string",
      input: { ...http, auth: "Bearer abc" },
      field: "auth",
      message: /auth.type must be one of/,
    },
  ];

  it.each(invalid)("$name → $field", ({ input, field, message }) => {
    const error = reject(input);
    expect(error.code).toBe("validation");
    expect(error.status).toBe(400);
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    const [first] = error.fieldErrors?.[field] ?? [];
    expect(first).toMatch(message);
    expect(first).not.toMatch(zodJargon);
    // The summary names the subject, the field and what is wrong with it.
    expect(error.message).toMatch(/^The server configuration /);
    expect(error.message).toContain(field);
    expect(error.message).toContain(first);
  });

  it("does not call a present name of the wrong type 'required'", () => {
    expect(reject({ ...stdio, name: 42 }).fieldErrors?.name?.[0]).not.toMatch(/required/);
  });

  it("does not blame a too-long command for being missing", () => {
    const [message] = reject({ ...stdio, command: "x".repeat(1025) }).fieldErrors?.command ?? [];
    expect(message).not.toMatch(/needs a command/);
    expect(message).toMatch(/1024/);
  });

  it("does not call too many args a type error", () => {
    const [message] = reject({ ...stdio, args: Array(201).fill("a") }).fieldErrors?.args ?? [];
    expect(message).not.toMatch(/must be a list of strings/);
    expect(message).toMatch(/200/);
  });

  it("reports every invalid field at once", () => {
    const error = reject({ name: "GitHub", transport: "stdio", connectTimeoutMs: 1, extra: true });
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual([
      "command",
      "connectTimeoutMs",
      "extra",
      "name",
    ]);
    expect(error.message).toMatch(/^The server configuration .*\b4\b/);
    for (const field of ["command", "connectTimeoutMs", "extra", "name"])
      expect(error.message).toContain(field);
  });

  it.each([
    { name: "a string", input: "github" },
    { name: "a list", input: [stdio] },
    { name: "null", input: null },
  ])("rejects $name instead of an object with a readable message", ({ input }) => {
    const error = reject(input);
    expect(error.code).toBe("validation");
    expect(error.message).toMatch(/^The server configuration /);
    expect(error.message).not.toMatch(zodJargon);
  });
});

describe("validationError", () => {
  it("uses the default subject and puts shape errors under _", () => {
    const result = z.strictObject({ a: z.string() }).safeParse(5);
    if (result.success) throw new Error("expected failure");
    const error = validationError(result.error);
    expect(error).toBeInstanceOf(AppError);
    expect(error.message).toMatch(/^The request /);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["_"]);
  });

  it("lists each unknown key as its own field, with nested paths", () => {
    const schema = z.strictObject({ auth: z.strictObject({ type: z.string() }) });
    const result = schema.safeParse({ auth: { type: "none", a: 1, b: 2 }, c: 3 });
    if (result.success) throw new Error("expected failure");
    expect(validationError(result.error).fieldErrors).toEqual({
      "auth.a": ['Unknown field "a".'],
      "auth.b": ['Unknown field "b".'],
      c: ['Unknown field "c".'],
    });
  });

  it("does not repeat the same message for a field", () => {
    const schema = z
      .string()
      .refine(() => false, { error: "Nope." })
      .refine(() => false, { error: "Nope." });
    const result = z.object({ a: schema }).safeParse({ a: "x" });
    if (result.success) throw new Error("expected failure");
    expect(validationError(result.error).fieldErrors).toEqual({ a: ["Nope."] });
  });

  // JSON bodies may carry any key; a key shared with Object.prototype must still be a 400, not a crash.
  it.each(["constructor", "toString", "hasOwnProperty", "__proto__"])(
    "reports an unknown field named %s as a field error",
    (key) => {
      const input = JSON.parse(`{"name":"github","transport":"stdio","command":"npx","${key}":1}`);
      const error = reject(input);
      expect(error.code).toBe("validation");
      // Read as the JSON body would be: own keys only (a "__proto__" assignment would be invisible).
      expect(Object.entries(error.fieldErrors ?? {})).toContainEqual([key, [`Unknown field "${key}".`]]);
    },
  );
});

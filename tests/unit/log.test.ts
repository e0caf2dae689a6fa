import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, type ContextManager, context, ROOT_CONTEXT } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readEnv } from "@/lib/env";
import {
  captureLogLines,
  log,
  rememberLogSecrets,
  resetLogger,
  withRequestId,
} from "@/lib/observability/log";

// biome-ignore lint/suspicious/noExplicitAny: log lines are checked by the assertions, not by types
type Line = Record<string, any>;

describe("the server log", () => {
  let lines: string[];
  let stop: () => void;
  const parsed = (): Line[] => lines.map((line) => JSON.parse(line) as Line);

  beforeEach(() => {
    resetLogger();
    lines = [];
    stop = captureLogLines((line) => lines.push(line), "info");
  });
  afterEach(() => {
    stop();
    vi.unstubAllEnvs();
    resetLogger();
  });

  it("writes one JSON object per line with level, time, message and the context of a child", () => {
    log.info("database ready (pglite); connection pool started (2 servers)");
    log.child({ callId: "c-1", tenantId: "t-1", principalId: "p-1" }).warn("call c-1: slow");
    log.debug("not at info");
    expect(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n"))).toBe(true);
    const [first, second, ...rest] = parsed();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      level: "info",
      name: "switchboard",
      msg: "database ready (pglite); connection pool started (2 servers)",
    });
    expect(new Date(first?.time).toISOString()).toBe(first?.time);
    expect(second).toMatchObject({ level: "warn", callId: "c-1", tenantId: "t-1", principalId: "p-1" });
  });

  it("scrubs remembered secret values wherever they appear: message, error, fields, JSON-escaped", () => {
    const plain = `sk-canary-${Math.random().toString(36).slice(2)}`;
    const quoted = `pa"ss\\word-${Math.random().toString(36).slice(2)}`;
    rememberLogSecrets([plain, quoted, "abc"]);
    log.error(
      { err: new Error(`upstream said ${plain}`), detail: { nested: [quoted] }, [plain]: 1 },
      `closing server failed: ${plain} / ${quoted}`,
    );
    log.info("abc is too short to be scrubbed");
    const text = lines.join("");
    expect(text).not.toContain(plain);
    expect(text).not.toContain(JSON.stringify(quoted).slice(1, -1));
    expect(text).not.toContain("ss\\word");
    const [line, short] = parsed();
    expect(line?.msg).toBe("closing server failed: [redacted] / [redacted]");
    expect(line?.err.message).toBe("upstream said [redacted]");
    expect(line?.detail).toEqual({ nested: ["[redacted]"] });
    expect(short?.msg).toBe("abc is too short to be scrubbed");
  });

  it("redacts credentials by field and Switchboard API keys by their shape", () => {
    const key = `sb_${"k".repeat(20)}Zq9`;
    log.info(
      {
        headers: { authorization: "Bearer anything", cookie: "sb_session=1", "x-api-key": "x" },
        apiKey: "y",
      },
      `key ${key} used`,
    );
    const [line] = parsed();
    expect(lines.join("")).not.toContain(key);
    expect(line?.msg).toBe("key sb_[redacted] used");
    expect(line?.headers).toEqual({
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-api-key": "[redacted]",
    });
    expect(line?.apiKey).toBe("[redacted]");
  });

  it("keeps a failed query's parameters out, whether the error or only its message is logged", () => {
    // A value the scrubber cannot know yet: a new secret, or an agent's argument, in an insert that failed.
    const value = `new-value-${Math.random().toString(36).slice(2)}`;
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "secrets_name"'), {
      code: "23505",
    });
    const failed = new DrizzleQueryError(
      'insert into "secrets" ("name", "value") values ($1, $2)',
      ["db", value, `a first line\n${value} "quoted"`],
      cause,
    );
    log.error({ err: failed }, "saving a secret failed");
    log.error(`saving a secret failed: ${failed.message}`);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(value);
      expect(line).toContain('insert into \\"secrets\\"');
    }
    // What went wrong stays readable: the database's own message is kept with the error.
    expect(lines[0]).toContain("duplicate key value violates unique constraint");
  });

  it("keeps a failed query's parameters out even when one looks like the start of a stack frame", () => {
    // A parameter is whatever an agent or an operator sent: it can hold "\n    at " on purpose.
    const value = `after-frame-${Math.random().toString(36).slice(2)}`;
    const failed = new DrizzleQueryError(
      'insert into "calls" ("arguments") values ($1)',
      [`x\n    at fake (file.js:1:1)\n${value}`],
      new Error("value too long for type character varying(10)"),
    );
    log.error({ err: failed }, "recording a call failed");
    log.error(`recording a call failed: ${failed.message}`);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(value);
    // The error's own frames still say where it came from.
    expect(parsed()[0]?.err.stack).toMatch(/\n {4}at /);
  });

  it("adds the trace id while a span is active, and nothing when tracing is off", () => {
    const storage = new AsyncLocalStorage<Context>();
    const manager: ContextManager = {
      active: () => storage.getStore() ?? ROOT_CONTEXT,
      with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
      bind: (_ctx, target) => target,
      enable: () => manager,
      disable: () => manager,
    };
    log.info("before tracing");
    context.setGlobalContextManager(manager);
    try {
      const tracer = new BasicTracerProvider().getTracer("log-test");
      tracer.startActiveSpan("gateway request", (span) => {
        log.info("inside a span");
        span.end();
      });
    } finally {
      context.disable();
    }
    const [before, inside] = parsed();
    expect(before).not.toHaveProperty("traceId");
    expect(inside?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(inside?.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("names the HTTP request a line was written for", async () => {
    await withRequestId("req-42", async () => {
      await Promise.resolve();
      log.info("inside the request");
    });
    log.info("outside any request");
    const [inside, outside] = parsed();
    expect(inside).toMatchObject({ msg: "inside the request", requestId: "req-42" });
    expect(outside).not.toHaveProperty("requestId");
  });

  it("takes its level from SWITCHBOARD_LOG_LEVEL", () => {
    stop();
    resetLogger();
    vi.stubEnv("SWITCHBOARD_LOG_LEVEL", "WARN");
    const restore = captureLogLines((line) => lines.push(line), undefined);
    log.info("dropped at warn");
    log.warn("kept at warn");
    restore();
    expect(parsed().map((line) => line.msg)).toEqual(["kept at warn"]);
  });
});

describe("SWITCHBOARD_LOG_LEVEL and SWITCHBOARD_LOG_FORMAT", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("refuses a level that does not exist, naming the allowed ones", () => {
    vi.stubEnv("SWITCHBOARD_LOG_LEVEL", "loud");
    expect(() => readEnv()).toThrow(
      /SWITCHBOARD_LOG_LEVEL: "loud" is not a level; use one of trace, debug, info, warn, error, fatal, silent/,
    );
  });

  it("refuses an unknown format and defaults to info and JSON", () => {
    vi.stubEnv("SWITCHBOARD_LOG_FORMAT", "xml");
    expect(() => readEnv()).toThrow(/SWITCHBOARD_LOG_FORMAT is json or pretty/);
    vi.stubEnv("SWITCHBOARD_LOG_FORMAT", "");
    vi.stubEnv("SWITCHBOARD_LOG_LEVEL", "");
    vi.stubEnv("NODE_ENV", "production");
    expect(readEnv().log).toEqual({ level: "info", format: "json" });
  });
});

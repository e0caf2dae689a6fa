import { afterEach, describe, expect, it, vi } from "vitest";
import { readEnv } from "@/lib/env";

/* SWITCHBOARD_METRICS and its token: off unless asked for, and a bad value stops the start with what to set. */

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("metrics configuration", () => {
  it("is off without SWITCHBOARD_METRICS, on with it, and carries the token", () => {
    vi.stubEnv("SWITCHBOARD_METRICS", undefined);
    expect(readEnv().metrics).toEqual({ enabled: false, token: undefined });
    const token = "a".repeat(24);
    vi.stubEnv("SWITCHBOARD_METRICS", "on");
    vi.stubEnv("SWITCHBOARD_METRICS_TOKEN", token);
    expect(readEnv().metrics).toEqual({ enabled: true, token });
  });

  it("refuses a value other than on or off, and a token short enough to guess", () => {
    vi.stubEnv("SWITCHBOARD_METRICS", "yes");
    expect(() => readEnv()).toThrow("SWITCHBOARD_METRICS is on or off");
    vi.stubEnv("SWITCHBOARD_METRICS", "on");
    vi.stubEnv("SWITCHBOARD_METRICS_TOKEN", "secret");
    expect(() => readEnv()).toThrow("SWITCHBOARD_METRICS_TOKEN is at least 24 characters");
  });
});

import { describe, expect, it, vi } from "vitest";

describe("AppError across copies of its module", () => {
  // Next.js bundles lib/errors.ts once per entry: the runtime's copy (the pool) throws, a route
  // handler's copy catches. Two fresh imports reproduce that.
  const freshCopy = async () => {
    vi.resetModules();
    return import("@/lib/errors");
  };

  it("is recognised, with its code, by another copy", async () => {
    const thrower = await freshCopy();
    const catcher = await freshCopy();
    expect(catcher.AppError).not.toBe(thrower.AppError);

    const error = new thrower.AppError("timeout", "local-tools did not answer within 500 ms.");
    expect(catcher.isAppError(error)).toBe(true);
    expect(error instanceof catcher.AppError).toBe(true);
    expect(catcher.toAppError(error)).toMatchObject({ code: "timeout", status: 504 });
  });

  it("is not claimed for other errors, and subclasses keep their own instanceof", async () => {
    const { AppError, isAppError } = await freshCopy();
    class Narrower extends AppError {}
    expect(isAppError(new Error("plain"))).toBe(false);
    expect(isAppError({ code: "timeout", message: "looks alike" })).toBe(false);
    expect(new AppError("internal", "x") instanceof Narrower).toBe(false);
    expect(new Narrower("internal", "x") instanceof AppError).toBe(true);
  });
});

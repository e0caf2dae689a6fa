import { describe, expect, it } from "vitest";
import { minutesOf } from "@/cli/commands/allow-rules";

describe("switchboard rules create --for", () => {
  it.each([
    ["15m", 15],
    ["1h", 60],
    ["1d", 1440],
    ["90", 90],
  ])("reads %s as %i minutes", (text, minutes) => {
    expect(minutesOf(text)).toBe(minutes);
  });

  it("refuses what is not a duration, saying what is", () => {
    expect(() => minutesOf("soon")).toThrow("use 15m, 1h, 1d or a number of minutes");
    expect(() => minutesOf("1w")).toThrow("is not a duration");
  });
});

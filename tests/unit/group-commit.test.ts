import { describe, expect, it } from "vitest";
import { GroupCommit } from "@/lib/calls/group-commit";

/** A writer that records each batch it is given and refuses any batch holding "poison". */
function recordingWriter() {
  const batches: string[][] = [];
  const write = async (batch: string[]) => {
    batches.push(batch);
    // A write that takes a moment (time passing on purpose), so entries added meanwhile queue up.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (batch.includes("poison")) throw new Error("refused");
    return batch.map((entry) => entry.toUpperCase());
  };
  return { batches, commit: new GroupCommit(write) };
}

describe("GroupCommit", () => {
  it("writes entries added together as one batch, and what arrives meanwhile as the next", async () => {
    const { batches, commit } = recordingWriter();
    const first = [commit.add("a"), commit.add("b")];
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is in flight now
    const later = [commit.add("c"), commit.add("d")];
    expect(await Promise.all([...first, ...later])).toEqual(["A", "B", "C", "D"]);
    expect(batches).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });

  it("writes each entry of a refused batch alone, so only the bad one fails", async () => {
    const { batches, commit } = recordingWriter();
    const results = await Promise.allSettled([commit.add("a"), commit.add("poison"), commit.add("b")]);
    expect(results).toEqual([
      { status: "fulfilled", value: "A" },
      { status: "rejected", reason: new Error("refused") },
      { status: "fulfilled", value: "B" },
    ]);
    expect(batches).toEqual([["a", "poison", "b"], ["a"], ["poison"], ["b"]]);
  });
});

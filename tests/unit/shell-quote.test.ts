import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellJoin, shellQuote } from "@/lib/servers/shell-quote";

describe("shell quoting for a server's command line", () => {
  it("leaves plain words alone, so the usual command line reads as typed", () => {
    expect(shellJoin(["npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv/data"])).toBe(
      "npx -y @modelcontextprotocol/server-filesystem /srv/data",
    );
    expect(shellJoin(["node", "--import=tsx", "a,b:c%d+e.js"])).toBe("node --import=tsx a,b:c%d+e.js");
  });

  it("quotes a word with a space, so two arguments never read as one", () => {
    expect(shellJoin(["node", "my server.js", "--name", "Ada Lovelace"])).toBe(
      "node 'my server.js' --name 'Ada Lovelace'",
    );
  });

  it.each([
    ["", "''"],
    ["it's", `'it'\\''s'`],
    ["$HOME", "'$HOME'"],
    ["a;rm -rf /", "'a;rm -rf /'"],
    ["`id`", "'`id`'"],
    ["*.json", "'*.json'"],
    ["~/notes", "'~/notes'"],
    ["line\nbreak", "'line\nbreak'"],
    ['say "hi"', `'say "hi"'`],
  ])("quotes %j as %s", (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });

  it("gives back the very same arguments when a real shell reads the line", () => {
    const args = ["plain", "two words", "it's", "$HOME", "`id`", "*", "", "a\\b", 'q"uote', "ünï côdé"];
    // The shell prints each argument it received between markers: nothing expanded, split or lost.
    const result = spawnSync("sh", ["-c", `printf '<%s>' ${shellJoin(args)}`], { encoding: "utf8" });
    expect(result.stdout).toBe(args.map((a) => `<${a}>`).join(""));
  });
});

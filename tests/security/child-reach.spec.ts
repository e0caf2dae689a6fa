import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { dataDir, expect, test } from "./fixtures";

/*
 * A stdio child could read Switchboard's secret key, copy its database and read its environment
 * from /proc. Running as root (containers, CI), Switchboard starts children as an unprivileged user
 * and keeps its data folder to itself; the folder is 0700 under any user.
 */

const isRoot = process.getuid?.() === 0;

test("nothing under the data folder is readable by another user", () => {
  const loose: string[] = [];
  const visit = (entry: string) => {
    const stat = statSync(entry);
    if ((stat.mode & 0o077) !== 0)
      loose.push(`${path.relative(dataDir, entry) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dataDir);
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  expect(readdirSync(path.join(dataDir, "pgdata")).length).toBeGreaterThan(10);
  expect(loose).toEqual([]);
});

test("as root, a stdio child runs as nobody and reads neither the secret key, the database nor Switchboard's environment", async ({
  owner,
}) => {
  test.skip(
    !isRoot,
    "the tests do not run as root: children run as this same user (see README, Security model)",
  );
  const probe = path.join(process.cwd(), "tests", "security", "fixtures", "probe-reach.mjs");
  const registered = await owner.post("/api/v1/servers", {
    data: {
      name: "probe",
      transport: "stdio",
      command: "node",
      args: [probe, dataDir, path.join(dataDir, "secret.key")],
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  let stderr = "";
  await expect
    .poll(
      async () => {
        const diagnostics = await owner.get("/api/v1/servers/probe/diagnostics");
        stderr = ((await diagnostics.json()) as { stderrTail: string }).stderrTail;
        return stderr.includes("probe done");
      },
      { timeout: 30_000, message: "the probe's report in the diagnostics" },
    )
    .toBe(true);
  expect(stderr).toMatch(/^uid 65534 gid 65534$/m);
  expect(stderr).toContain("secret key: EACCES");
  expect(stderr).toContain("data folder: EACCES");
  expect(stderr).toContain("database file: EACCES");
  expect(stderr).toContain("parent environ: EACCES");
  // The probe did run and could read what any user may: the refusals above are not a broken probe.
  expect(stderr).toContain("passwd: readable");
  await owner.delete("/api/v1/servers/probe");
});

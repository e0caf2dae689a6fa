import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import {
  allowFixtureServers,
  countDir,
  countLines,
  createAgent,
  launchSwitchboard,
  postCall,
  registerCountingReadServer,
  type SwitchboardProcess,
} from "../fixtures/cluster";
import {
  createTestDatabase,
  findPostgresBin,
  type PostgresServer,
  startPostgres,
} from "../fixtures/postgres-server";

/*
 * Backup and restore with the commands docs/operations.md gives, on both databases (issue #25,
 * item 5): a workspace with a stored secret, a server that can only start with that secret's value
 * (the path of its count file is the secret) and an agent's key is backed up, changed, wiped and
 * restored; the restarted process decrypts the secret (the server starts and its call is counted),
 * the agent's key still works, and what changed after the backup is gone.
 */

test.describe.configure({ mode: "serial" });

const SECRET = "count-file";
const LATER_SECRET = "made-after-the-backup";

type World = { countFile: string; agentKey: string };

/** The workspace that is backed up: a secret, a server reading it at start, an agent allowed to call it. */
async function buildWorkspace(proc: SwitchboardProcess): Promise<World> {
  await allowFixtureServers(proc);
  const countFile = path.join(countDir(), "count.log");
  const stored = await proc.api("PUT", `/api/v1/secrets/${SECRET}`, { value: countFile });
  expect(stored.status, await stored.text()).toBe(201);
  await registerCountingReadServer(proc, "counter", countFile, { COUNT_FILE: { secret: SECRET } });
  const agentKey = await createAgent(proc, "backup-agent", ["counter__*"]);
  return { countFile, agentKey };
}

/** A call by the agent that must run: counted once in the count file the secret names. */
async function expectRecorded(proc: SwitchboardProcess, world: World, key: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await postCall(proc, world.agentKey, {
          tool: "counter__record",
          arguments: { key },
          waitSeconds: 20,
        });
        const body = (await res.json()) as { call?: { status: string }; error?: { message: string } };
        return body.call?.status ?? `${res.status} ${body.error?.message}`;
      },
      // Right after a start the server may still be connecting: its call fails and is asked again.
      { timeout: 60_000, intervals: [500, 1_000, 2_000] },
    )
    .toBe("succeeded");
  expect(countLines(world.countFile, key)).toBe(1);
}

async function secretNames(proc: SwitchboardProcess): Promise<string[]> {
  const { secrets } = (await (await proc.api("GET", "/api/v1/secrets")).json()) as {
    secrets: Array<{ name: string }>;
  };
  return secrets.map((s) => s.name).sort();
}

/** What happened after the backup: restoring it must undo this. */
async function changeAfterBackup(proc: SwitchboardProcess, world: World): Promise<void> {
  expect((await proc.api("PUT", `/api/v1/secrets/${LATER_SECRET}`, { value: "x" })).status).toBe(201);
  await expectRecorded(proc, world, "after-backup");
  expect(await secretNames(proc)).toEqual([SECRET, LATER_SECRET]);
}

async function expectRestored(proc: SwitchboardProcess, world: World): Promise<void> {
  expect(await secretNames(proc)).toEqual([SECRET]);
  // The secret decrypts: the server starts with the count file's path and the call runs once.
  await expectRecorded(proc, world, "after-restore");
  expect(countLines(world.countFile)).toBe(3);
}

test.describe("backup and restore", () => {
  let pg: PostgresServer | undefined;
  const processes: SwitchboardProcess[] = [];
  const work = path.join(tmpdir(), `switchboard-backup-${randomBytes(3).toString("hex")}`);

  test.beforeAll(() => mkdirSync(work, { recursive: true }));
  test.afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await pg?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test("PostgreSQL: pg_dump while it runs, drop the database, pg_restore into a new one, start again", async () => {
    pg = await startPostgres();
    const databaseUrl = await createTestDatabase(pg.url);
    const apiKey = `sb_backup-${randomBytes(12).toString("hex")}`;
    const env = {
      DATABASE_URL: databaseUrl,
      SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey,
      SWITCHBOARD_SEED_DEMO: "false",
      // Kept apart from the database, as docs/operations.md says: the dump alone cannot decrypt.
      SWITCHBOARD_SECRET_KEY: randomBytes(32).toString("base64"),
    };
    const proc = await launchSwitchboard({ name: "pg", env, apiKey });
    processes.push(proc);
    const world = await buildWorkspace(proc);
    await expectRecorded(proc, world, "before-backup");

    const bin = findPostgresBin();
    const dump = path.join(work, "switchboard.dump");
    execFileSync(path.join(bin, "pg_dump"), ["--format=custom", `--file=${dump}`, databaseUrl]);
    await changeAfterBackup(proc, world);

    await proc.stop();
    const name = new URL(databaseUrl).pathname.slice(1);
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database "${name}"`);
      await admin.unsafe(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    execFileSync(path.join(bin, "pg_restore"), ["--no-owner", `--dbname=${databaseUrl}`, dump]);

    await proc.start();
    await expectRestored(proc, world);
  });

  test("PGlite: stop, tar the data folder (with its generated key), wipe it, untar, start again", async () => {
    const apiKey = `sb_backup-${randomBytes(12).toString("hex")}`;
    // No SWITCHBOARD_SECRET_KEY: the key is generated into the data folder and backed up with it.
    const env = { SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey, SWITCHBOARD_SEED_DEMO: "false" };
    const proc = await launchSwitchboard({ name: "pglite", env, apiKey });
    processes.push(proc);
    const world = await buildWorkspace(proc);
    await expectRecorded(proc, world, "before-backup");

    const archive = path.join(work, "switchboard-data.tgz");
    await proc.stop();
    execFileSync("tar", ["-czf", archive, "-C", proc.dataDir, "."]);
    await proc.start();
    await changeAfterBackup(proc, world);

    await proc.stop();
    rmSync(proc.dataDir, { recursive: true, force: true });
    mkdirSync(proc.dataDir, { recursive: true });
    execFileSync("tar", ["-xzf", archive, "-C", proc.dataDir]);

    await proc.start();
    await expectRestored(proc, world);
  });
});

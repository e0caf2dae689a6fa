import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEnv } from "@/lib/env";

/**
 * Who a stdio server runs as. When Switchboard runs as root (containers, CI), its children run as
 * an unprivileged user (SWITCHBOARD_STDIO_USER, default `nobody`): they cannot read the data folder
 * (0700), the secret key, the database files or /proc/<switchboard>/environ. As an ordinary user
 * there is nobody to switch to: children run as that same user (docs/security.md says what they reach).
 */

export type ChildIdentity = { uid: number; gid: number; user: string; home: string };

let resolved: { user: string | undefined; identity: ChildIdentity | undefined } | undefined;

/** The identity for stdio children, or undefined to run them as this process's own user. */
export function stdioChildIdentity(): ChildIdentity | undefined {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  const user = readEnv().stdioUser;
  if (resolved?.user !== user) resolved = { user, identity: lookUpIdentity(user) };
  return resolved.identity;
}

function lookUpIdentity(user: string): ChildIdentity | undefined {
  const entry = findPasswdEntry(user);
  if (!entry) {
    throw new Error(
      `SWITCHBOARD_STDIO_USER names "${user}", which is not a user of this machine (see /etc/passwd); stdio servers are not started as root.`,
    );
  }
  // Asking for root is asking to keep everything reachable; honoured, and said in Settings → Instance.
  if (entry.uid === 0) return undefined;
  return { ...entry, home: childHome(entry.uid, entry.gid) };
}

function findPasswdEntry(user: string): { user: string; uid: number; gid: number } | undefined {
  let text = "";
  try {
    text = fs.readFileSync("/etc/passwd", "utf8");
  } catch {
    // no passwd file: only numeric ids can be used
  }
  for (const line of text.split("\n")) {
    const [name, , uid, gid] = line.split(":");
    if (name && uid && gid && (name === user || uid === user)) {
      return { user: name, uid: Number(uid), gid: Number(gid) };
    }
  }
  const numeric = /^(\d+)(?::(\d+))?$/.exec(user);
  if (numeric) return { user, uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) };
  return undefined;
}

/**
 * A home folder the child user owns (npx and uvx keep their caches there), outside the data
 * folder. Reused across starts when it is really that user's own; made afresh otherwise (someone
 * else may have created the name first).
 */
function childHome(uid: number, gid: number): string {
  const stable = path.join(os.tmpdir(), `switchboard-stdio-home-${uid}`);
  try {
    fs.mkdirSync(stable, { mode: 0o700 });
    fs.chownSync(stable, uid, gid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(stable);
  if (stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0) return stable;
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-stdio-home-${uid}-`));
  fs.chownSync(fresh, uid, gid);
  return fresh;
}

/** The base environment of a stdio child: names only from the SDK's short list, values for the child's user. */
export function childBaseEnvironment(
  base: Record<string, string>,
  identity: ChildIdentity | undefined,
): Record<string, string> {
  if (!identity) return base;
  return { ...base, HOME: identity.home, USER: identity.user, LOGNAME: identity.user };
}

export type StdioReach = {
  /** Who stdio servers run as, as a person reads it. */
  runsAs: string;
  /** Whether they run as another user than Switchboard (and so cannot read its files or environment). */
  isolated: boolean;
  /** What a stdio server can still reach, one sentence each. */
  notes: string[];
};

/** Said in Settings → Instance and docs/security.md: what a stdio server can reach on this machine. */
export function describeStdioReach(): StdioReach {
  const self = os.userInfo().username;
  let identity: ChildIdentity | undefined;
  try {
    identity = stdioChildIdentity();
  } catch (error) {
    return {
      runsAs: "nobody: stdio servers cannot start",
      isolated: false,
      notes: [(error as Error).message],
    };
  }
  if (identity) {
    return {
      runsAs: `${identity.user} (uid ${identity.uid}), not ${self}`,
      isolated: true,
      notes: [
        "They cannot read the data folder (its database files and secret key), nor Switchboard's environment in /proc.",
        "They can read what any user of this machine can, and reach the network unless the machine's firewall says otherwise.",
      ],
    };
  }
  return {
    runsAs: `${self}, the same user as Switchboard`,
    isolated: false,
    notes: [
      "A stdio server runs as the same user as Switchboard: it can read Switchboard's data folder (the database and, unless SWITCHBOARD_SECRET_KEY or SWITCHBOARD_SECRET_KEY_FILE points elsewhere, the secret key) and its environment (/proc/<pid>/environ).",
      "Only launches an instance owner allowed can run; to keep even those away from Switchboard's files, run Switchboard as root in a container: stdio servers then run as SWITCHBOARD_STDIO_USER (nobody by default).",
    ],
  };
}

/**
 * The first folder on the way to `target` that stdio children (another user) cannot enter, when
 * they run as another user: the demo servers live in the project folder, and a clone under /root
 * (0700) is out of their reach. Undefined when nothing is in the way.
 */
export function folderBlockingChildren(target: string): string | undefined {
  const identity = stdioChildIdentity();
  if (!identity) return undefined;
  let folder = path.resolve(target);
  const blocking: string[] = [];
  for (;;) {
    try {
      const stat = fs.statSync(folder);
      const mayEnter =
        stat.uid === identity.uid
          ? stat.mode & 0o100
          : stat.gid === identity.gid
            ? stat.mode & 0o010
            : stat.mode & 0o001;
      if (!mayEnter) blocking.push(folder);
    } catch {
      // a folder that cannot be read here: leave the verdict to the spawn
    }
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return blocking.at(-1);
}

import fs from "node:fs";
import path from "node:path";
import { log } from "@/lib/observability/log";

/**
 * The embedded database's folder holds every secret Switchboard has (its key, its sessions, the
 * database files, WAL included): readable by this process's user only. The umask makes everything
 * created from now on 0600/0700 (PGlite creates its files 0666 otherwise); what an older version
 * left looser is tightened, once, with a log line.
 */
export function secureDataDir(dataDir: string): void {
  restrictUmask();
  keepModesPrivateUnder(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tightened = tighten(dataDir);
  if (tightened > 0) {
    log.info(
      `${dataDir}: ${tightened} file(s) or folder(s) were readable by other users; now by this user only`,
    );
  }
}

const privateFolders = new Set<string>();

/**
 * PGlite (Emscripten's NODEFS) gives every file it creates its mode with an explicit chmod — 0666
 * for nearly all of them — which the umask does not touch. Inside a data folder, chmod keeps the
 * group and other bits off; everywhere else it is Node's own.
 */
function keepModesPrivateUnder(dataDir: string): void {
  const folder = path.resolve(dataDir);
  if (privateFolders.size === 0) {
    const chmodSync = fs.chmodSync;
    const isPrivate = (target: fs.PathLike) => {
      const resolved = path.resolve(String(target));
      for (const root of privateFolders) {
        if (resolved === root || resolved.startsWith(root + path.sep)) return true;
      }
      return false;
    };
    fs.chmodSync = (target: fs.PathLike, mode: fs.Mode) =>
      chmodSync(target, isPrivate(target) ? toNumber(mode) & ~0o077 : mode);
  }
  privateFolders.add(folder);
}

const toNumber = (mode: fs.Mode) => (typeof mode === "number" ? mode : Number.parseInt(mode, 8));

function restrictUmask(): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask (tests); the folder walk below still tightens.
  }
}

/** Removes group and other permissions under `folder` (symbolic links are left alone); returns how many changed. */
function tighten(folder: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      fs.chmodSync(entry, stat.mode & 0o700);
      changed++;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(folder);
  return changed;
}

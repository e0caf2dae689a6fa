import fs from "node:fs";
import path from "node:path";

/**
 * The embedded database's folder holds every secret Switchboard has (its key, its sessions, the
 * database files, WAL included): readable by this process's user only. The umask makes everything
 * created from now on 0600/0700 (PGlite creates its files 0666 otherwise); what an older version
 * left looser is tightened, once, with a log line.
 */
export function secureDataDir(dataDir: string): void {
  restrictUmask();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tightened = tighten(dataDir);
  if (tightened > 0) {
    console.log(
      `[switchboard] ${dataDir}: ${tightened} file(s) or folder(s) were readable by other users; now by this user only`,
    );
  }
}

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

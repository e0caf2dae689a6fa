import fs from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock of its own: two processes on one data folder lose writes or corrupt it.
 * One lock file holding the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "switchboard.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (owner !== process.pid && isProcessAlive(owner)) {
        throw Object.assign(
          new Error(
            `The data folder ${dataDir} is in use by another Switchboard process (pid ${owner}). ` +
              "Stop it, or point SWITCHBOARD_DATA_DIR at another folder.",
          ),
          { code: "SWITCHBOARD_DATA_DIR_LOCKED" },
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}.`);
}

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

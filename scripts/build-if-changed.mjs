#!/usr/bin/env node
// `npm start`'s first step: run `next build` only when .next/ does not hold a build of these sources
// (scripts/build-stamp.mjs decides). Arguments are passed to `next build` (and are part of what a
// build is made from). SWITCHBOARD_REBUILD=1 builds whatever the record says.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decideBuild, hashBuildInputs, readBuildId, STAMP_FILE, stampFor } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = path.join(root, ".next");
const buildArgs = process.argv.slice(2);
const force = ["1", "true", "yes"].includes((process.env.SWITCHBOARD_REBUILD ?? "").toLowerCase());

// Hashed before building: a source edited during the build then reads as a change, and rebuilds.
const inputsHash = hashBuildInputs({ root, buildArgs });
const decision = decideBuild({ distDir, inputsHash, force });

if (!decision.build) {
  const when = decision.builtAt ? ` (built ${decision.builtAt})` : "";
  console.log(
    `Reusing the build in .next/${when}: the sources have not changed since. To rebuild anyway: SWITCHBOARD_REBUILD=1 npm start`,
  );
  process.exit(0);
}

console.log(`Building (${decision.reason}); this takes a minute or two, and later starts reuse it.`);
// No record while building: an interrupted build must not look like a finished one.
rmSync(path.join(distDir, STAMP_FILE), { force: true });
const previousBuildId = readBuildId(distDir);
const nextBin = createRequire(path.join(root, "package.json")).resolve("next/dist/bin/next");
const result = spawnSync(process.execPath, [nextBin, "build", ...buildArgs], { cwd: root, stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
// `next build --help` and the like exit 0 without building: only a new BUILD_ID is a new build.
if (readBuildId(distDir) === previousBuildId) process.exit(0);

writeFileSync(
  path.join(distDir, STAMP_FILE),
  `${JSON.stringify(stampFor({ distDir, inputsHash }), null, 2)}\n`,
);

// Types of scripts/build-stamp.mjs (plain Node so `npm start` runs it before anything is built).
export const STAMP_FILE: string;
export function readBuildId(distDir: string): string | null;
export function listSourceFiles(root: string): string[];
export function buildEnvironment(env: Record<string, string | undefined>): string[];
export function hashBuildInputs(options: {
  root: string;
  env?: Record<string, string | undefined>;
  buildArgs?: string[];
  nodeVersion?: string;
}): string;
export type BuildDecision = { build: true; reason: string } | { build: false; builtAt: string | null };
export function decideBuild(options: { distDir: string; inputsHash: string; force?: boolean }): BuildDecision;
export function stampFor(options: { distDir: string; inputsHash: string; now?: Date }): {
  buildId: string;
  inputsHash: string;
  builtAt: string;
};

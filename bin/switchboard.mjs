#!/usr/bin/env node
// The `switchboard` command: runs the TypeScript CLI (cli/index.ts) through tsx, both resolved
// relative to this file so it works from any working directory and through `npx switchboard`.
import { register } from "tsx/esm/api";

register();
await import(new URL("../cli/index.ts", import.meta.url).href);

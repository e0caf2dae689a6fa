import path from "node:path";
import { z } from "zod";

/** Switchboard's own configuration, read once from the process environment. */
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
        .optional(),
    ),
  SWITCHBOARD_DATA_DIR: z.string().trim().min(1).default(".data"),
  SWITCHBOARD_SECRET_KEY: z.string().trim().optional(),
  SWITCHBOARD_SEED_DEMO: z.enum(["true", "false"]).default("true"),
});

export type Env = {
  databaseUrl: string | undefined;
  dataDir: string;
  secretKey: string | undefined;
  seedDemoServers: boolean;
};

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid Switchboard configuration: ${detail}`);
  }
  const env = parsed.data;
  return {
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.SWITCHBOARD_DATA_DIR),
    secretKey: env.SWITCHBOARD_SECRET_KEY || undefined,
    seedDemoServers: env.SWITCHBOARD_SEED_DEMO === "true",
  };
}

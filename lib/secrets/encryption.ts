import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The AES-256-GCM key: SWITCHBOARD_SECRET_KEY (32 bytes as base64 or hex), the file named by
 * SWITCHBOARD_SECRET_KEY_FILE, or, when neither is set, a key generated once into the data folder
 * with 0600 permissions.
 */
export function loadSecretKey(options: {
  secretKey: string | undefined;
  secretKeyFile?: string | undefined;
  dataDir: string;
}): Buffer {
  if (options.secretKey) return parseKey(options.secretKey, "SWITCHBOARD_SECRET_KEY");
  if (options.secretKeyFile) {
    return parseKey(
      fs.readFileSync(options.secretKeyFile, "utf8").trim(),
      `The key file ${options.secretKeyFile}`,
    );
  }
  const keyPath = path.join(options.dataDir, "secret.key");
  try {
    return parseKey(fs.readFileSync(keyPath, "utf8").trim(), `The key file ${keyPath}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    fs.writeFileSync(keyPath, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    // Another process won the race: use its key.
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return parseKey(fs.readFileSync(keyPath, "utf8").trim(), `The key file ${keyPath}`);
    throw error;
  }
}

function parseKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== KEY_BYTES) {
    throw new Error(
      `${source} must hold 32 bytes written as base64 or hex (e.g. \`openssl rand -base64 32\`).`,
    );
  }
  return key;
}

/** `associatedData` binds a ciphertext to its tenant and name, so a row copied elsewhere won't decrypt. */
export function encryptSecret(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

export function decryptSecret(key: Buffer, ciphertext: string, associatedData: string): string {
  const raw = Buffer.from(ciphertext, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    "utf8",
  );
}

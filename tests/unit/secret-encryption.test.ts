import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, loadSecretKey } from "@/lib/secrets/encryption";

const key = randomBytes(32);
const aad = "tenant-1/github-token";

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "secret-encryption-"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Flips one bit of the decoded ciphertext at `index` (iv 0–11, tag 12–27, body 28+). */
function flipByte(ciphertext: string, index: number): string {
  const raw = Buffer.from(ciphertext, "base64");
  raw[index] = (raw[index] ?? 0) ^ 0x01;
  return raw.toString("base64");
}

describe("encryptSecret / decryptSecret", () => {
  it.each(["ghp_abc123", "", "pässwörd 🔑", "x".repeat(65_536)])("round-trips %#", (plaintext) => {
    expect(decryptSecret(key, encryptSecret(key, plaintext, aad), aad)).toBe(plaintext);
  });

  it("gives a different ciphertext each time, none containing the plaintext", () => {
    const plaintext = "canary-secret-value";
    const ciphertexts = Array.from({ length: 5 }, () => encryptSecret(key, plaintext, aad));
    expect(new Set(ciphertexts).size).toBe(5);
    for (const c of ciphertexts) {
      expect(c).not.toContain(plaintext);
      expect(Buffer.from(c, "base64").toString("utf8")).not.toContain(plaintext);
    }
  });

  it.each([
    { part: "the IV", index: 0 },
    { part: "the auth tag", index: 12 },
    { part: "the first body byte", index: 28 },
    { part: "the last body byte", index: 28 + "ghp_abc123".length - 1 },
  ])("refuses a ciphertext with a flipped bit in $part", ({ index }) => {
    const ciphertext = encryptSecret(key, "ghp_abc123", aad);
    expect(() => decryptSecret(key, flipByte(ciphertext, index), aad)).toThrow();
  });

  it("refuses a truncated or empty ciphertext", () => {
    const ciphertext = encryptSecret(key, "ghp_abc123", aad);
    const raw = Buffer.from(ciphertext, "base64");
    expect(() => decryptSecret(key, raw.subarray(0, raw.length - 1).toString("base64"), aad)).toThrow();
    expect(() => decryptSecret(key, raw.subarray(0, 20).toString("base64"), aad)).toThrow();
    expect(() => decryptSecret(key, "", aad)).toThrow();
  });

  it("refuses a ciphertext moved to another tenant or secret name", () => {
    const ciphertext = encryptSecret(key, "ghp_abc123", aad);
    expect(() => decryptSecret(key, ciphertext, "tenant-2/github-token")).toThrow();
    expect(() => decryptSecret(key, ciphertext, "tenant-1/other-token")).toThrow();
  });

  it("refuses the wrong key", () => {
    const ciphertext = encryptSecret(key, "ghp_abc123", aad);
    expect(() => decryptSecret(randomBytes(32), ciphertext, aad)).toThrow();
  });
});

describe("loadSecretKey", () => {
  const raw = randomBytes(32);

  it.each([
    { format: "base64", text: raw.toString("base64") },
    { format: "lowercase hex", text: raw.toString("hex") },
    { format: "uppercase hex", text: raw.toString("hex").toUpperCase() },
  ])("reads a configured key written as $format, without touching the data dir", ({ text }) => {
    const dataDir = path.join(base, "configured");
    expect(loadSecretKey({ secretKey: text, dataDir }).equals(raw)).toBe(true);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it.each([
    { name: "a short word", text: "changeme" },
    { name: "16 bytes of base64", text: randomBytes(16).toString("base64") },
    { name: "48 bytes of base64", text: randomBytes(48).toString("base64") },
    { name: "31 bytes of hex", text: randomBytes(31).toString("hex") },
    { name: "33 bytes of hex", text: randomBytes(33).toString("hex") },
  ])("refuses $name with an error saying what a key looks like", ({ text }) => {
    let error: unknown;
    try {
      loadSecretKey({ secretKey: text, dataDir: path.join(base, "unused") });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/SWITCHBOARD_SECRET_KEY/);
    expect(message).toMatch(/32 bytes/);
    expect(message).toMatch(/base64 or hex/);
    // The rejected value may be a real (if malformed) secret: never echo it.
    expect(message).not.toContain(text);
  });

  it("reads the key from SWITCHBOARD_SECRET_KEY_FILE, so it need not be in the environment", () => {
    const keyFile = path.join(base, "mounted-secret");
    fs.writeFileSync(keyFile, `${raw.toString("base64")}\n`, { mode: 0o600 });
    const dataDir = path.join(base, "from-file");
    expect(loadSecretKey({ secretKey: undefined, secretKeyFile: keyFile, dataDir }).equals(raw)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "secret.key"))).toBe(false);
    fs.writeFileSync(keyFile, "changeme");
    expect(() => loadSecretKey({ secretKey: undefined, secretKeyFile: keyFile, dataDir })).toThrow(
      `The key file ${keyFile} must hold 32 bytes`,
    );
  });

  it("generates a 0600 key file when no key is configured, and reuses it", () => {
    const dataDir = path.join(base, "fresh", "nested");
    const first = loadSecretKey({ secretKey: undefined, dataDir });
    const keyPath = path.join(dataDir, "secret.key");
    expect(first).toHaveLength(32);
    expect(fs.statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(keyPath, "utf8").trim(), "base64").equals(first)).toBe(true);

    const second = loadSecretKey({ secretKey: undefined, dataDir });
    expect(second.equals(first)).toBe(true);
    // A secret written before a restart still decrypts after it.
    const ciphertext = encryptSecret(first, "survives restarts", aad);
    expect(decryptSecret(second, ciphertext, aad)).toBe("survives restarts");
    // An empty configured key counts as no key.
    expect(loadSecretKey({ secretKey: "", dataDir }).equals(first)).toBe(true);
  });

  it("generates a different key for another data dir", () => {
    const a = loadSecretKey({ secretKey: undefined, dataDir: path.join(base, "dir-a") });
    const b = loadSecretKey({ secretKey: undefined, dataDir: path.join(base, "dir-b") });
    expect(a.equals(b)).toBe(false);
  });

  it("prefers a configured key over an existing key file", () => {
    const dataDir = path.join(base, "both");
    const generated = loadSecretKey({ secretKey: undefined, dataDir });
    const configured = loadSecretKey({ secretKey: raw.toString("base64"), dataDir });
    expect(configured.equals(raw)).toBe(true);
    expect(configured.equals(generated)).toBe(false);
  });

  it("blames the key file, not the environment variable, when the file is corrupt", () => {
    const dataDir = path.join(base, "corrupt");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "secret.key"), "not a key\n", { mode: 0o600 });
    // The operator never set SWITCHBOARD_SECRET_KEY; the message must point at the file to fix.
    expect(() => loadSecretKey({ secretKey: undefined, dataDir })).toThrow(path.join(dataDir, "secret.key"));
    // …and it must not quietly replace the file (that would orphan every stored secret).
    expect(fs.readFileSync(path.join(dataDir, "secret.key"), "utf8")).toBe("not a key\n");
  });
});

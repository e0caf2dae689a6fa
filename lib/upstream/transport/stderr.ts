/**
 * A server's stderr, kept for the post-mortem: bounded, and with every resolved secret replaced
 * before it is stored, so neither the diagnostics page nor an event can ever show one.
 */

export const REDACTED = "[redacted]";

// Shorter values would blank out ordinary words all over the log; a 1–3 character secret
// cannot be protected by scrubbing anyway.
const MIN_SCRUBBED_LENGTH = 4;

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SCRUBBED_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

export class StderrBuffer {
  private content = "";
  // Text that might be the start of a secret whose rest has not arrived yet.
  private pending = "";
  private secrets: string[] = [];

  constructor(private readonly capacity = 64 * 1024) {}

  /** Adds values to scrub (kept across restarts: an old process's output may still arrive). */
  addSecrets(values: readonly string[]): void {
    const all = new Set([...this.secrets, ...values.filter((v) => v.length >= MIN_SCRUBBED_LENGTH)]);
    // Longest first, so a secret containing another is replaced whole.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
  }

  /** Appends output; returns the scrubbed text that became visible (what an event may carry). */
  write(chunk: string): string {
    const scrubbed = scrubSecrets(this.pending + chunk, this.secrets);
    const hold = this.secretPrefixLength(scrubbed);
    this.pending = scrubbed.slice(scrubbed.length - hold);
    const visible = scrubbed.slice(0, scrubbed.length - hold);
    this.append(visible);
    return visible;
  }

  /** The stream ended: what was held back cannot become a secret any more. */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    this.append(rest);
    return rest;
  }

  /** A line from Switchboard itself (process started, exited), so restarts are visible in the log. */
  note(line: string): void {
    this.flush();
    const sep = this.content === "" || this.content.endsWith("\n") ? "" : "\n";
    this.append(`${sep}[switchboard] ${line}\n`);
  }

  text(): string {
    return this.content;
  }

  tail(chars = 4000): string {
    return this.content.length > chars ? this.content.slice(-chars) : this.content;
  }

  private append(text: string): void {
    if (!text) return;
    this.content += text;
    if (this.content.length > this.capacity) this.content = this.content.slice(-this.capacity);
  }

  /** Length of the longest suffix of `text` that is a proper prefix of some secret. */
  private secretPrefixLength(text: string): number {
    let best = 0;
    for (const secret of this.secrets) {
      const from = Math.max(0, text.length - secret.length + 1);
      for (let i = from; i < text.length; i++) {
        if (text.length - i <= best) break;
        if (text[i] === secret[0] && secret.startsWith(text.slice(i))) {
          best = text.length - i;
          break;
        }
      }
    }
    return best;
  }
}

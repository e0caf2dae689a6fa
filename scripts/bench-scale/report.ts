// bench:scale's output: per part, a table of figures, each beside its goal, and notes below it.

export type Verdict = boolean | undefined;

type Row = { figure: string; value: string; goal: string; verdict: Verdict };

export class Section {
  private readonly rows: Row[] = [];
  private readonly notes: string[] = [];
  /** Results that were not their own request's answer (or were wrong): 0 required. */
  mismatches = 0;

  constructor(readonly title: string) {}

  row(figure: string, value: string, goal = "", verdict: Verdict = undefined): void {
    this.rows.push({ figure, value, goal, verdict });
  }

  note(text: string): void {
    this.notes.push(text);
  }

  print(): void {
    const mark = (v: Verdict) => (v === undefined ? "" : v ? "met" : "**NOT MET**");
    const lines = [`\n### ${this.title}\n`, "| figure | measured | goal | |", "|---|---|---|---|"];
    for (const r of this.rows) lines.push(`| ${r.figure} | ${r.value} | ${r.goal} | ${mark(r.verdict)} |`);
    lines.push(`| mismatched results | ${this.mismatches} | 0 | ${mark(this.mismatches === 0)} |`);
    if (this.notes.length) lines.push("", ...this.notes.map((n) => `- ${n}`));
    console.log(lines.join("\n"));
  }
}

export const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms` : "—");
export const s = (v: number) => `${(v / 1000).toFixed(2)} s`;
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
export const mib = (v: number) => `${v.toFixed(1)} MiB`;

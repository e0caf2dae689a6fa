/**
 * Bounded label values: a Prometheus series per distinct label value, so a label fed from input
 * that grows without bound (principals, tools) keeps the first `limit` values it sees in this
 * process and reports every later one as "other". First come, first kept — never evicted, since a
 * series that changed meaning half-way would lie on a graph.
 */
export const OTHER_LABEL = "other";

export class LabelCap {
  private readonly kept = new Set<string>();

  constructor(readonly limit: number) {}

  valueOf(raw: string): string {
    if (this.kept.has(raw)) return raw;
    if (this.kept.size >= this.limit) return OTHER_LABEL;
    this.kept.add(raw);
    return raw;
  }

  get size(): number {
    return this.kept.size;
  }
}

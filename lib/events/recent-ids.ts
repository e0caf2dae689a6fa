/** Ids seen recently, the oldest forgotten first (a Set iterates in insertion order). */
export class RecentIds {
  private readonly ids = new Set<number>();
  constructor(private readonly capacity: number) {}
  has(id: number): boolean {
    return this.ids.has(id);
  }
  add(id: number): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as number);
  }
}

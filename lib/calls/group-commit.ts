/**
 * Writes queued entries in batches (the call journal's group commit): one batch in flight at a
 * time, everything queued meanwhile goes in the next. A batch starts once the requests that arrived
 * together have been read (setImmediate), not at the first entry: on embedded PGlite a write holds
 * the only thread, so calls could not join a batch once it has started. When a batch fails, each of
 * its entries is written alone, so one entry the database refuses fails nobody else.
 */
export class GroupCommit<In, Out> {
  private queue: Array<{ entry: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  private writing = false;
  private startingSoon = false;

  constructor(private readonly write: (batch: In[]) => Promise<Out[]>) {}

  add(entry: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    // The batch in flight is followed by everything queued; a batch about to start takes this too.
    if (this.writing || this.startingSoon) return;
    this.startingSoon = true;
    setImmediate(() => {
      this.startingSoon = false;
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          const outs = await this.write(batch.map((p) => p.entry));
          for (const [i, pending] of batch.entries()) pending.resolve(outs[i] as Out);
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error);
          // One entry the database refuses must not fail the others written with it: each again alone.
          else for (const pending of batch) await this.writeAlone(pending);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeAlone(pending: (typeof this.queue)[number]): Promise<void> {
    try {
      const [out] = await this.write([pending.entry]);
      pending.resolve(out as Out);
    } catch (error) {
      pending.reject(error);
    }
  }
}

export interface BatchedWriterOptions<T> {
  /** Writes one batch; a rejection loses that batch (counted by `onFailed`), never the caller's work. */
  write(batch: T[]): Promise<void>;
  /** Items held at most while waiting for a write; past it, new items are dropped and counted. */
  maxBuffered: number;
  /** Items per write; a full batch is written at once rather than at the next interval. */
  batchSize: number;
  intervalMs: number;
  onDropped(count: number): void;
  onFailed(err: unknown, count: number): void;
  onWritten?(count: number): void;
}

export interface BatchedWriter<T> {
  /** Never waits and never throws: the item is buffered, or dropped when the buffer is full. */
  add(item: T): void;
  /** Writes everything buffered; resolves when done (failures are reported, not thrown). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

/**
 * Gathers items in a bounded buffer and writes them in batches, one write at a time: a full batch as soon as it
 * fills, what is left of one every `intervalMs` (or on `flush`). Whoever adds an item (a request) never waits on the
 * store, and a slow or failing store costs memory bounded by `maxBuffered`, not latency or errors. Items that gather
 * while a write is under way wait for their batch to fill: writing them at once, a few at a time, would cost the
 * store a statement per handful of items whenever its writes are slower than the traffic.
 */
export const makeBatchedWriter = <T>({ write, maxBuffered, batchSize, intervalMs, onDropped, onFailed, onWritten }: BatchedWriterOptions<T>): BatchedWriter<T> => {
  let buffer: T[] = [];
  let writing: Promise<void> | null = null;
  let scheduled = false;

  const drain = async (everything: boolean): Promise<void> => {
    // What a flush owes is what was buffered when it began: items that arrive while it writes wait for a full batch,
    // or else a flush under steady traffic would go on writing a few items per statement for as long as it lasts.
    let owed = everything ? buffer.length : 0;
    while (buffer.length >= batchSize || owed > 0) {
      const batch = buffer.length <= batchSize ? buffer : buffer.slice(0, batchSize);
      buffer = buffer.length <= batchSize ? [] : buffer.slice(batchSize);
      owed -= batch.length;
      try {
        await write(batch);
        onWritten?.(batch.length);
      } catch (err) {
        onFailed(err, batch.length);
      }
    }
  };
  /** Starts a drain unless one is under way, and resolves when the one running ends. */
  const startDrain = (everything: boolean): Promise<void> =>
    (writing ??= drain(everything).finally(() => {
      writing = null;
    }));
  const flush = async (): Promise<void> => {
    // A drain of full batches may be under way and leave a part of one: wait for it, then write the rest.
    while (writing !== null) await writing;
    await startDrain(true);
  };

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    add(item) {
      if (buffer.length >= maxBuffered) {
        onDropped(1);
        return;
      }
      buffer.push(item);
      if (buffer.length >= batchSize && writing === null && !scheduled) {
        scheduled = true;
        // After the current request's work: the write starts once the caller's tick is done.
        setImmediate(() => {
          scheduled = false;
          void startDrain(false);
        });
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};

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
 * Gathers items in a bounded buffer and writes them in batches, every `intervalMs` or as soon as a batch is full, one
 * write at a time: whoever adds an item (a request) never waits on the store, and a slow or failing store costs
 * memory bounded by `maxBuffered`, not latency or errors.
 */
export const makeBatchedWriter = <T>({ write, maxBuffered, batchSize, intervalMs, onDropped, onFailed, onWritten }: BatchedWriterOptions<T>): BatchedWriter<T> => {
  let buffer: T[] = [];
  let writing: Promise<void> | null = null;
  let scheduled = false;

  const drain = async (): Promise<void> => {
    while (buffer.length > 0) {
      const batch = buffer.length <= batchSize ? buffer : buffer.slice(0, batchSize);
      buffer = buffer.length <= batchSize ? [] : buffer.slice(batchSize);
      try {
        await write(batch);
        onWritten?.(batch.length);
      } catch (err) {
        onFailed(err, batch.length);
      }
    }
  };
  const flush = (): Promise<void> =>
    (writing ??= drain().finally(() => {
      writing = null;
    }));

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
          void flush();
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

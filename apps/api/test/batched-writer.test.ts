import t from 'tap';
import { makeBatchedWriter } from '../src/composition/batched-writer.js';

const writer = (write: (batch: number[]) => Promise<void>) => {
  const counts = { dropped: 0, failed: 0, written: 0 };
  const w = makeBatchedWriter<number>({
    write,
    maxBuffered: 5,
    batchSize: 2,
    intervalMs: 60_000,
    onDropped: (n) => (counts.dropped += n),
    onFailed: (_err, n) => (counts.failed += n),
    onWritten: (n) => (counts.written += n),
  });
  t.teardown(() => w.close());
  return { w, counts };
};

t.test('items are written in batches of at most batchSize, in order, by one write at a time', async (t) => {
  const batches: number[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const { w, counts } = writer(async (batch) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    batches.push(batch);
    inFlight -= 1;
  });
  for (const n of [1, 2, 3, 4, 5]) w.add(n);
  await w.flush();
  t.same(batches, [[1, 2], [3, 4], [5]]);
  t.equal(mostInFlight, 1);
  t.same(counts, { dropped: 0, failed: 0, written: 5 });
});

t.test('items gathered during a write wait for a full batch; the rest waits for the interval or a flush', async (t) => {
  const batches: number[][] = [];
  let release = () => {};
  const { w } = writer(async (batch) => {
    batches.push(batch);
    if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
  });
  w.add(1);
  w.add(2);
  await new Promise((resolve) => setImmediate(resolve));
  t.same(batches, [[1, 2]], 'a full batch is written once the adding tick is done');
  w.add(3);
  release();
  for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
  t.same(batches, [[1, 2]], 'one item gathered during the write is not written alone');
  w.add(4);
  w.add(5);
  for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
  t.same(batches, [[1, 2], [3, 4]], 'written as soon as its batch is full');
  await w.flush();
  t.same(batches, [[1, 2], [3, 4], [5]], 'flush writes the rest');
});

t.test('a flush writes what was buffered when it began: items arriving during its writes wait for a full batch', async (t) => {
  const batches: number[][] = [];
  let next = 100;
  const { w } = writer(async (batch) => {
    batches.push(batch);
    // Traffic goes on while a batch is written: an item arrives during each write.
    w.add(next++);
    await new Promise((resolve) => setImmediate(resolve));
  });
  w.add(1);
  await w.flush();
  t.same(batches, [[1]], 'the flush ends after what it owed, not after the traffic stops');
  w.add(2);
  await new Promise((resolve) => setImmediate(resolve));
  t.same(batches, [[1], [100, 2]], 'the items that arrived meanwhile went out with a full batch');
});

t.test('what is left of a batch is written by the interval, without a flush', async (t) => {
  const batches: number[][] = [];
  const w = makeBatchedWriter<number>({
    write: async (batch) => {
      batches.push(batch);
    },
    maxBuffered: 5,
    batchSize: 2,
    intervalMs: 20,
    onDropped: () => {},
    onFailed: () => {},
  });
  t.teardown(() => w.close());
  w.add(1);
  for (let waited = 0; batches.length === 0 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  t.same(batches, [[1]]);
});

t.test('a full buffer drops new items and counts them; adding never throws or waits', async (t) => {
  const { w, counts } = writer(async () => {});
  // Added within one tick: no write can start in between.
  for (let n = 0; n < 8; n++) w.add(n);
  t.equal(counts.dropped, 3, 'five held, three dropped');
  await w.flush();
  t.equal(counts.written, 5);
});

t.test('a failed write is counted and the next batch is still written', async (t) => {
  let calls = 0;
  const { w, counts } = writer(async () => {
    calls += 1;
    if (calls === 1) throw new Error('database away');
  });
  for (const n of [1, 2, 3]) w.add(n);
  await w.flush();
  t.same(counts, { dropped: 0, failed: 2, written: 1 });
});

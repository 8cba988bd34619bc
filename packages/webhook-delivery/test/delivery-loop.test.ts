import t from 'tap';
import { startDeliveryLoop } from '../src/delivery-loop.js';
import { memoryLogger, sleep } from '@garage/testkit';

t.test('drains without pause while work is due, then polls at the interval', async (t) => {
  const backlog = [5, 5, 2];
  const calls: number[] = [];
  const loop = startDeliveryLoop({
    deliver: async () => {
      calls.push(Date.now());
      return backlog.shift() ?? 0;
    },
    logger: memoryLogger(),
    intervalMs: 200,
  });
  await sleep(100);
  t.equal(calls.length, 4, 'three busy passes and the empty one, back to back');
  await sleep(200);
  t.equal(calls.length, 5, 'then one pass per interval');
  await loop.stop();
});

t.test('stop waits for the pass in flight and then no pass starts', async (t) => {
  let finished = false;
  let passes = 0;
  const loop = startDeliveryLoop({
    deliver: async () => {
      passes += 1;
      await sleep(150);
      finished = true;
      return 1;
    },
    logger: memoryLogger(),
    intervalMs: 10,
  });
  await sleep(20);
  await loop.stop();
  t.equal(finished, true, 'the in-flight pass completed before stop resolved');
  t.equal(passes, 1);
  await sleep(50);
  t.equal(passes, 1);
});

t.test('a failing pass is logged and retried with a growing pause; the loop survives', async (t) => {
  const logger = memoryLogger();
  let calls = 0;
  const loop = startDeliveryLoop({
    deliver: async () => {
      calls += 1;
      if (calls <= 2) throw new Error('database unavailable');
      return 0;
    },
    logger,
    intervalMs: 50,
  });
  await sleep(100);
  t.equal(calls, 2, 'after the second failure the pause doubles');
  await sleep(150);
  t.ok(calls >= 3, 'recovered by itself');
  await loop.stop();
  t.equal(logger.lines.filter((l) => l.level === 'error').length, 2);
  t.match(logger.lines[0], { msg: 'webhook delivery pass failed', obj: { err: { message: 'database unavailable' } } });
});

t.test('an abort signal stops the loop, even one aborted before start', async (t) => {
  const controller = new AbortController();
  let calls = 0;
  const loop = startDeliveryLoop({
    deliver: async () => (calls++, 0),
    logger: memoryLogger(),
    intervalMs: 10,
    signal: controller.signal,
  });
  await sleep(30);
  controller.abort();
  await loop.stop();
  const after = calls;
  await sleep(40);
  t.equal(calls, after);

  const aborted = AbortSignal.abort();
  let none = 0;
  await startDeliveryLoop({ deliver: async () => (none++, 0), logger: memoryLogger(), signal: aborted }).stop();
  t.ok(none <= 1);
});

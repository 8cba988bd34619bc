import { Writable } from 'node:stream';
import t from 'tap';
import { createWorkerLogger } from '../src/logger.js';

t.test("the worker's lines hide credentials as the API's do", async (t) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = createWorkerLogger('info', stream);
  logger.warn({ headers: { 'x-api-key': 'k-secret', authorization: 'Bearer b-secret' }, query: { apiKey: 'q-secret' }, apiKey: 'f-secret' }, 'a line');
  const [line] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(line, {
    service: 'garage-worker',
    msg: 'a line',
    headers: { 'x-api-key': '[REDACTED]', authorization: '[REDACTED]' },
    query: { apiKey: '[REDACTED]' },
    apiKey: '[REDACTED]',
  });
  for (const secret of ['k-secret', 'b-secret', 'q-secret', 'f-secret']) t.notOk(lines.join('').includes(secret), secret);
});

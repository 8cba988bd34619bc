import t from 'tap';
import { createWorkerLogger } from '../src/logger.js';

t.test("the worker's log lines hide credentials as the API's do", async (t) => {
  const lines: string[] = [];
  const logger = createWorkerLogger('info', { write: (line: string) => void lines.push(line) });
  const secret = 'a-secret-that-must-not-be-logged';
  logger.info({ headers: { 'x-api-key': secret, authorization: `Bearer ${secret}`, accept: 'application/json' } }, 'headers');
  logger.info({ query: { apiKey: secret, limit: 2 } }, 'query');
  logger.info({ apiKey: secret, webhookSecret: secret }, 'keys');
  t.notOk(lines.join('').includes(secret), 'the secret appears in no line');
  const [headers, query, keys] = lines.map((line) => JSON.parse(line));
  t.same(headers.headers, { 'x-api-key': '[REDACTED]', authorization: '[REDACTED]', accept: 'application/json' });
  t.same(query.query, { apiKey: '[REDACTED]', limit: 2 });
  t.match(keys, { apiKey: '[REDACTED]', webhookSecret: '[REDACTED]', service: 'garage-worker' });
});

import t from 'tap';
import { parseStatusFilter, ValidationError } from '../src/index.js';

t.test('a status filter is one status or a class', async (t) => {
  t.same(parseStatusFilter('404'), { min: 404, max: 404 });
  t.same(parseStatusFilter('4xx'), { min: 400, max: 499 });
  for (const bad of ['4x', '600', '40', 'xx', '4XX']) t.throws(() => parseStatusFilter(bad), ValidationError, bad);
});

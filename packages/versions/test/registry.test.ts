import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import t from 'tap';
import { API_VERSIONS, changelogMarkdown, makeRegistry, renderEvent, renderWebhookBody, type VersionChange } from '../src/index.js';

/** Two changes to one response, in two versions: the pipeline takes a body back through each, newest first. */
const renamed: VersionChange = {
  version: '2027-01-01',
  description: 'total is named amount',
  responses: { 'GET /things': { 200: { schema: Type.Object({ total: Type.Integer() }), toPrevious: ({ amount }) => ({ total: amount }) } } },
};
const wrapped: VersionChange = {
  version: '2027-06-01',
  description: 'the body is wrapped in data',
  responses: { 'GET /things': { 200: { schema: Type.Object({ amount: Type.Integer() }), toPrevious: (body) => body.data as Record<string, unknown> } } },
  events: { 'thing.made': { schema: Type.Object({ n: Type.Integer() }), toPrevious: ({ count }) => ({ n: count }) } },
};
const registry = makeRegistry({ first: '2026-01-01', changes: [renamed, wrapped], deprecations: { '2026-01-01': { since: '2027-01-01', sunsetAt: '2028-01-01' } } });

t.test('a response at each version: newest untouched, older ones through every newer change, newest first', async (t) => {
  const newest = { data: { amount: 7 } };
  t.equal(registry.renderResponse('2027-06-01', 'GET /things', 200, newest), newest, 'the newest is the handler\'s own body');
  t.same(registry.renderResponse('2027-01-01', 'GET /things', 200, newest), { amount: 7 });
  t.same(registry.renderResponse('2026-01-01', 'GET /things', 200, newest), { total: 7 });
  t.equal(registry.renderResponse('2026-01-01', 'GET /things', 404, newest), newest, 'other statuses pass');
  t.equal(registry.renderResponse('2026-01-01', 'GET /other', 200, newest), newest, 'other routes pass');
});

t.test('schemas at a version are those of the oldest change newer than it', async (t) => {
  t.same(registry.previousResponseSchema('2026-01-01', 'GET /things', 200), renamed.responses!['GET /things']![200]!.schema);
  t.same(registry.previousResponseSchema('2027-01-01', 'GET /things', 200), wrapped.responses!['GET /things']![200]!.schema);
  t.equal(registry.previousResponseSchema('2027-06-01', 'GET /things', 200), undefined);
  t.same(registry.previousEventSchema('2026-01-01', 'thing.made'), wrapped.events!['thing.made']!.schema);
});

t.test('events are rendered with their version', async (t) => {
  const event = { type: 'thing.made', occurredAt: new Date('2027-07-01T10:00:00Z'), livemode: true, data: { count: 3 } };
  t.same(renderEvent(registry, '2026-01-01', event), { type: 'thing.made', timestamp: '2027-07-01T10:00:00.000Z', apiVersion: '2026-01-01', livemode: true, data: { n: 3 } });
  t.equal(renderEvent(registry, '2026-01-01', { ...event, livemode: false }).livemode, false, 'a sandbox event says so at every version');
  t.same(renderEvent(registry, '2027-06-01', event).data, { count: 3 });
});

t.test('the registry lists versions oldest first and refuses dates out of order', async (t) => {
  t.same(registry.versions.map((v) => v.version), ['2026-01-01', '2027-01-01', '2027-06-01']);
  t.equal(registry.oldest, '2026-01-01');
  t.equal(registry.latest, '2027-06-01');
  t.same(registry.find('2026-01-01')?.deprecation, { since: '2027-01-01', sunsetAt: '2028-01-01' });
  t.equal(registry.find('2026-02-30'), undefined);
  t.throws(() => makeRegistry({ first: '2026-01-01', changes: [wrapped, renamed] }), /list changes oldest first/);
  t.throws(() => makeRegistry({ first: '2026-1-1', changes: [] }), /YYYY-MM-DD/);
});

t.test('the real versions: 2026-11-26 takes lead.created back to vehicleId and vehicleReference', async (t) => {
  t.same(API_VERSIONS.versions.map((v) => v.version), ['2026-11-21', '2026-11-26']);
  const data = { id: 'l1', vehicle: { id: 'v1', reference: 'V-1', make: 'Peugeot', model: '208', year: 2021 }, name: 'Anne', email: null, phone: null, message: null, createdAt: 'x' };
  const old = API_VERSIONS.renderEventData('2026-11-21', 'lead.created', data);
  t.same(Object.keys(old), ['id', 'vehicleId', 'vehicleReference', 'name', 'email', 'phone', 'message', 'createdAt'], 'the order of 2026-11-21');
  t.match(old, { vehicleId: 'v1', vehicleReference: 'V-1' });
  const body = JSON.parse(renderWebhookBody({ type: 'lead.created', occurredAt: new Date(0), livemode: true, data }, '2026-11-26'));
  t.same(body, { type: 'lead.created', timestamp: '1970-01-01T00:00:00.000Z', apiVersion: '2026-11-26', livemode: true, data });
  const stored = { success: true, appointmentId: 'a1' };
  t.equal(API_VERSIONS.renderResponse('2026-11-21', 'POST /api/public/appointments', 201, stored), stored, 'a body stored before the change passes');
});

t.test('the committed changelog is the one the change modules generate (pnpm changelog)', async (t) => {
  const committed = readFileSync(new URL('../../../docs/reference/changelog.md', import.meta.url), 'utf8');
  t.equal(committed, changelogMarkdown(API_VERSIONS));
  t.match(changelogMarkdown(registry), /## 2026-01-01\n\nDeprecated since 2027-01-01; sunset on 2028-01-01\.\n\n- The first version/);
});

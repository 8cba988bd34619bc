import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';

/** The alert rules of deploy/prometheus, checked and unit-tested by promtool, each with its runbook section. */

const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((path) => existsSync(path));
if (!PROMTOOL) throw new Error('promtool is not installed: this test needs it (.ci/system-deps installs the prometheus package)');

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = `${root}deploy/prometheus/alerts.yaml`;
const RULE_TESTS = `${root}deploy/prometheus/alerts.test.yaml`;
const RUNBOOK = `${root}docs/operators/alerts.md`;

interface Rule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (parse(await readFile(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);

t.test('promtool accepts the rules', async (t) => {
  const { stdout } = await run(PROMTOOL, ['check', 'rules', RULES]);
  t.match(stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));
});

t.test("the rules' unit tests pass: each alert fires when it should and not before", async (t) => {
  const result = await run(PROMTOOL, ['test', 'rules', RULE_TESTS]).catch((err: { stdout?: string; stderr?: string }) => err);
  t.match(`${result.stdout}${result.stderr}`, /SUCCESS/, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  const tested = new Set([...(await readFile(RULE_TESTS, 'utf8')).matchAll(/alertname: (\w+)/g)].map((m) => m[1]));
  for (const { alert } of rules) t.ok(tested.has(alert), `${alert} is tested`);
});

t.test('every alert names its severity and links to its own runbook section', async (t) => {
  const runbook = await readFile(RUNBOOK, 'utf8');
  // GitHub's anchors: the heading, lowercased, its spaces as hyphens, other punctuation dropped.
  const anchors = new Set([...runbook.matchAll(/^##+ (.+)$/gm)].map((m) => m[1]!.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
  const expected = ['GarageApiHighErrorRatio', 'GarageApiSlowKeyReads', 'GarageNotReady', 'GarageRequestsOnDeprecatedVersion', 'GaragePostgresUnreachable', 'GaragePostgresConnectionsLost', 'GarageRedisUnreachable', 'GarageRetentionBehind', 'GarageWebhookBacklogOld', 'GarageWebhookFailureRatio'];
  t.same(rules.map((rule) => rule.alert).sort(), expected.sort(), 'the alerts operators are promised');
  for (const rule of rules) {
    t.match(rule.labels?.severity, /^(page|ticket|info)$/, `${rule.alert}: severity`);
    const url = rule.annotations?.runbook_url ?? '';
    const [path, anchor] = url.split('#');
    t.equal(path, 'docs/operators/alerts.md', `${rule.alert}: runbook in docs/operators/alerts.md`);
    t.equal(anchor, rule.alert.toLowerCase(), `${rule.alert}: its own section`);
    t.ok(anchors.has(anchor ?? ''), `${rule.alert}: the section exists`);
  }
});

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentationFiles } from '@garage/docs-render';
import t from 'tap';
import { linkProblems, REPOSITORY_ROOT } from './support/link-check.js';

t.test('every link of the documentation resolves inside the repository', async (t) => {
  const files = await documentationFiles(REPOSITORY_ROOT);
  for (const required of ['README.md', 'docs/reference/contract.md', 'docs/connectors/quick-start.md', 'packages/client/README.md', 'apps/cli/README.md', 'apps/worker/README.md']) {
    t.ok(files.includes(required), `${required} is checked`);
  }
  const problems = (await Promise.all(files.map((file) => linkProblems(REPOSITORY_ROOT, file)))).flat();
  t.same(problems, [], 'no broken link, no link out of the repository');
});

t.test('the README stays an entry point: at most 150 lines, pointing into docs/', async (t) => {
  const readme = await readFile(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
  t.ok(readme.trimEnd().split('\n').length <= 150, 'at most 150 lines');
  for (const folder of ['connectors', 'reference', 'operators', 'contributors']) t.match(readme, `](docs/${folder}/`, `links to docs/${folder}`);
});

t.test('the checker refuses links a reader with a clone cannot follow', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'docs-links-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'docs', 'other.md'), '# Other\n\n## Some section\n');
  await writeFile(
    join(root, 'README.md'),
    [
      '# Title',
      '',
      '## A `code` heading',
      '',
      '[ok](docs/other.md#some-section) [ok](#a-code-heading) [ok](https://example.com/x) [ok](docs/)',
      '',
      '[contract](../shared/CONTRACT.md)',
      '[absolute](/etc/hosts)',
      '[file](file:///etc/hosts)',
      '[missing](docs/missing.md)',
      '| [in a table](docs/other.md#no-such-section) |',
      '|---|',
      '- [in a list](#nowhere)',
    ].join('\n'),
  );
  const problems = await linkProblems(root, 'README.md');
  t.match(problems, [
    /README\.md:7: \.\.\/shared\/CONTRACT\.md: leaves the repository/,
    /README\.md:8: \/etc\/hosts: an absolute path/,
    /README\.md:9: file:\/\/\/etc\/hosts: only http\(s\)/,
    /README\.md:10: docs\/missing\.md: no such file/,
    /README\.md:11: docs\/other\.md#no-such-section: no heading #no-such-section/,
    /README\.md:13: #nowhere: no heading #nowhere/,
  ]);
  t.equal(problems.length, 6, 'the good links pass');
});

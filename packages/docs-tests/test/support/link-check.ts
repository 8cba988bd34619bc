import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkdown, type ParsedMarkdown } from '@garage/docs-render';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const EXTERNAL = /^https?:\/\//i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * What is wrong with the links of the Markdown file `file` (relative to `root`): a link must be an http(s) URL (not
 * fetched), an anchor of the same page, or a relative path to a file of the repository, and an anchor in another
 * Markdown file must be one of its headings. Absolute paths and paths that leave the repository are refused: a reader
 * with a clone cannot open them.
 */
export const linkProblems = async (root: string, file: string): Promise<string[]> => {
  const parsed = new Map<string, ParsedMarkdown>();
  const parse = async (path: string) => {
    let result = parsed.get(path);
    if (!result) parsed.set(path, (result = parseMarkdown(await readFile(join(root, path), 'utf8'))));
    return result;
  };
  const problems: string[] = [];
  for (const { href, line } of (await parse(file)).links) {
    const where = `${file}:${line}: ${href}`;
    if (EXTERNAL.test(href)) continue;
    if (SCHEME.test(href)) {
      problems.push(`${where}: only http(s) links may leave the repository`);
      continue;
    }
    const [path = '', anchor] = href.split('#');
    if (isAbsolute(path) || path.startsWith('/')) {
      problems.push(`${where}: an absolute path points outside the repository`);
      continue;
    }
    const target = path === '' ? file : relative(root, resolve(root, dirname(file), decodeURIComponent(path)));
    if (target.startsWith('..') || isAbsolute(target)) {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    const found = await stat(join(root, target)).catch(() => null);
    if (!found) {
      problems.push(`${where}: no such file in the repository`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (!target.endsWith('.md')) problems.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!(await parse(target)).anchors.has(decodeURIComponent(anchor))) problems.push(`${where}: no heading #${anchor} in ${target}`);
    }
  }
  return problems;
};

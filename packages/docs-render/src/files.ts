import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

const markdownUnder = async (root: string, folder: string): Promise<string[]> => {
  const entries = await readdir(join(root, folder), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
};

const readmesOf = async (root: string, folder: string): Promise<string[]> => {
  const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => `${folder}/${entry.name}/README.md`);
  const present = await Promise.all(
    names.map(async (name) => ((await readdir(join(root, name, '..'))).includes('README.md') ? name : null)),
  );
  return present.filter((name): name is string => name !== null);
};

/**
 * Every page of the documentation, as paths relative to the repository root: the README, everything under `docs/`,
 * and the README of each app and package.
 */
export const documentationFiles = async (root: string): Promise<string[]> =>
  [
    'README.md',
    ...(await markdownUnder(root, 'docs')),
    ...(await readmesOf(root, 'apps')),
    ...(await readmesOf(root, 'packages')),
  ].sort();

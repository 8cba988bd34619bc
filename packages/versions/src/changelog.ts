import type { VersionRegistry } from './registry.js';

/** docs/reference/changelog.md, written from the registry by `pnpm changelog` (newest version first). */
export const changelogMarkdown = (registry: VersionRegistry): string => {
  const sections = [...registry.versions].reverse().map((v) => {
    const status = v.deprecation ? `\n\nDeprecated since ${v.deprecation.since}; sunset on ${v.deprecation.sunsetAt}.` : '';
    const lines = v.changes.length === 0 ? ['- The first version: the API as it was when versions began.'] : v.changes.map((c) => `- ${c.description}`);
    return `## ${v.version}${status}\n\n${lines.join('\n')}\n`;
  });
  return [
    '# API changelog',
    '',
    '<!-- Generated from packages/versions/src/changes by `pnpm changelog`; do not edit by hand. -->',
    '',
    'Each version lists only its breaking changes; additive changes reach every version at once. How versions are',
    'chosen and how to upgrade: [versions](../connectors/versions.md).',
    '',
    ...sections,
  ].join('\n');
};

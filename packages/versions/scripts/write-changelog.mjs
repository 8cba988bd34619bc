// `pnpm changelog`: writes docs/reference/changelog.md from the version changes (packages/versions/src/changes).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSIONS, changelogMarkdown } from '../dist/index.js';

const target = fileURLToPath(new URL('../../../docs/reference/changelog.md', import.meta.url));
writeFileSync(target, changelogMarkdown(API_VERSIONS));
process.stdout.write(`wrote ${target}\n`);

import { readFile, readdir } from 'node:fs/promises';
import { posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Marked, type Tokens } from 'marked';
import { parseMarkdown, plainText } from './markdown.js';

/** Where the pages are served: beside the interactive reference. */
export const DOCS_BASE_PATH = '/api/public/docs';

/** The folders of `docs/` written for the readers of the docs page (connector developers), in the menu's order. */
const SECTIONS = [
  { folder: 'connectors', title: 'Guides' },
  { folder: 'reference', title: 'Reference' },
] as const;

/** The guides in reading order; pages not listed follow, by name. */
const ORDER = ['quick-start', 'catalog-and-stock', 'booking', 'webhooks', 'leads-and-quotes', 'errors-and-retries', 'versions', 'contract', 'openapi', 'changelog'];

export interface Page {
  /** The page's path under DOCS_BASE_PATH, and its source under `docs/` without `.md`: `connectors/quick-start`. */
  path: string;
  title: string;
  html: string;
  /** The images the page shows, as paths under `docs/` (`connectors/portal/overview.png`): served beside the page. */
  images: string[];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const isRelative = (href: string) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/') && !href.startsWith('#');

/**
 * A link of the page at `from` (`connectors/quick-start`) as served: a page that is served too keeps its relative
 * link, without `.md`; anything else in the repository (a package's README, an operator's page) is not served, so
 * the link becomes plain text (null).
 */
const servedHref = (from: string, href: string, served: Set<string>): string | null => {
  if (!isRelative(href)) return href;
  const [file = '', anchor] = href.split('#');
  if (file === '') return href;
  const target = posix.normalize(posix.join(posix.dirname(from), file)).replace(/\.md$/, '');
  if (!served.has(target)) return null;
  return `${posix.relative(posix.dirname(from), posix.dirname(target)) || '.'}/${posix.basename(target)}${anchor === undefined ? '' : `#${anchor}`}`;
};

/** An image of the page at `from` as a path under `docs/`, or null when it lies outside the served sections. */
const imagePath = (from: string, src: string): string | null => {
  if (!isRelative(src)) return null;
  const target = posix.normalize(posix.join(posix.dirname(from), src));
  return SECTIONS.some(({ folder }) => target.startsWith(`${folder}/`)) ? target : null;
};

const renderBody = (path: string, markdown: string, served: Set<string>, images: string[]): string => {
  const slugger = new GithubSlugger();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(token: Tokens.Heading) {
        const id = slugger.slug(plainText(token.tokens));
        return `<h${token.depth} id="${escapeHtml(id)}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = servedHref(path, token.href, served);
        return href === null ? text : `<a href="${escapeHtml(href)}">${text}</a>`;
      },
      image(token: Tokens.Image) {
        // A relative image is served from the same relative place; anything else would be another origin's asset.
        const target = imagePath(path, token.href);
        if (target === null) return escapeHtml(token.text);
        images.push(target);
        return `<img src="${escapeHtml(token.href)}" alt="${escapeHtml(token.text)}" loading="lazy">`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
};

/** The product's one stylesheet, served by the API beside the portal (apps/api/portal/assets/garage.css). */
export const STYLESHEET_PATH = '/assets/garage.css';

const layout = (page: Pick<Page, 'path' | 'title'>, body: string, pages: Pick<Page, 'path' | 'title'>[]): string => {
  const menu = SECTIONS.map(({ folder, title }) => {
    const items = pages
      .filter((p) => p.path.startsWith(`${folder}/`))
      .map((p) => `<li><a href="${DOCS_BASE_PATH}/${p.path}"${p.path === page.path ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`)
      .join('');
    return `<h2>${title}</h2><ul>${items}</ul>`;
  }).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Garage public integration API</title><link rel="stylesheet" href="${STYLESHEET_PATH}"></head>
<body class="docs"><header class="topbar"><a class="brand" href="${DOCS_BASE_PATH}">Garage <span>public integration API</span></a></header>
<div class="docs-body"><nav class="docs-nav" aria-label="Guides"><a href="${DOCS_BASE_PATH}">API reference</a>${menu}</nav><main>${body}</main></div></body></html>
`;
};

const rank = (path: string) => {
  const index = ORDER.indexOf(posix.basename(path));
  return index === -1 ? ORDER.length : index;
};

/** The pages of `docs/connectors` and `docs/reference` under `root`, rendered as HTML documents that link each other. */
export const renderPages = async (root: string): Promise<Page[]> => {
  const sources: { path: string; markdown: string }[] = [];
  for (const { folder } of SECTIONS) {
    const names = (await readdir(posix.join(root, 'docs', folder))).filter((name) => name.endsWith('.md'));
    for (const name of names) {
      sources.push({ path: `${folder}/${name.slice(0, -3)}`, markdown: await readFile(posix.join(root, 'docs', folder, name), 'utf8') });
    }
  }
  sources.sort((a, b) => a.path.split('/')[0]!.localeCompare(b.path.split('/')[0]!) || rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  const served = new Set(sources.map((source) => source.path));
  const pages = sources.map(({ path, markdown }) => ({ path, title: parseMarkdown(markdown).title ?? posix.basename(path), markdown }));
  return pages.map(({ path, title, markdown }) => {
    const images: string[] = [];
    const body = renderBody(path, markdown, served, images);
    return { path, title, html: layout({ path, title }, body, pages), images };
  });
};

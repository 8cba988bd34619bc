export { documentationFiles } from './files.js';
export { parseMarkdown, plainText, type CodeBlock, type Link, type ParsedMarkdown } from './markdown.js';
export { DOCS_BASE_PATH, renderPages, type Page } from './pages.js';

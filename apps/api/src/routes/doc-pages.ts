import { readdir, readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';

/** Where the build writes the rendered guides (scripts/write-doc-pages.mjs): `dist/doc-pages/<section>/<page>.html`. */
const PAGES_DIR = new URL('../../dist/doc-pages/', import.meta.url);

/** What the build writes there: each page, and the images the pages show. */
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.png': 'image/png' };

interface Served {
  type: string;
  body: Buffer;
}

/** Each served file by its path under the docs (`connectors/quick-start`, `connectors/portal/overview.png`). */
const readServed = async (): Promise<Map<string, Served>> => {
  const served = new Map<string, Served>();
  const entries = await readdir(PAGES_DIR, { recursive: true }).catch(() => [] as string[]);
  for (const entry of entries) {
    const extension = entry.slice(entry.lastIndexOf('.'));
    const type = TYPES[extension];
    if (type === undefined) continue;
    const path = entry.split('\\').join('/');
    served.set(extension === '.html' ? path.slice(0, -extension.length) : path, { type, body: await readFile(new URL(entry, PAGES_DIR)) });
  }
  return served;
};

/**
 * The connector guides and the reference, as pages a person reads beside the interactive reference:
 * `/api/public/docs/connectors/quick-start` is `docs/connectors/quick-start.md`. Read once at start.
 */
const docPages: FastifyPluginAsync = async (app) => {
  // One route per file, so that any other path is an unknown route (404), not a page with a wrong name.
  for (const [path, { type, body }] of await readServed()) {
    app.get(`/api/public/docs/${path}`, { schema: { hide: true } }, async (_request, reply) => reply.type(type).send(body));
  }
};

export default docPages;

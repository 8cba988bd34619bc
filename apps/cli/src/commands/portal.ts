import type { Command } from 'commander';
import { PORTAL_LINK_DEFAULT_MINUTES } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { parseNumber, parseUuid } from '../options.js';

/** `integration portal-link` and `integration audit` (docs/reference/contract.md §10). */
export const registerPortalCommands = (integration: Command, ctx: CliContext): void => {
  integration
    .command('portal-link')
    .description('print a single-use link that opens the connector portal of an integration (send it to its developer)')
    .argument('<id>', 'integration id', parseUuid)
    .option('--ttl-minutes <minutes>', 'how long the link may be used', parseNumber, PORTAL_LINK_DEFAULT_MINUTES)
    .option('--json', 'print one JSON document: {"url", "expiresAt"}')
    .action(async (id: string, options: JsonOption & { ttlMinutes: number }) => {
      const base = await ctx.publicUrl();
      const link = await ctx.withAdmin((admin) => admin.createPortalLink(id, { ttlMinutes: options.ttlMinutes }));
      // The secret travels in the fragment: browsers never send it, so no server or proxy log holds it.
      const url = `${base}/portal/login#token=${link.token}`;
      const expiresAt = link.expiresAt.toISOString();
      ctx.print(options, { url, expiresAt }, () => [`Portal link for integration ${id} (single use, until ${expiresAt}):`, url].join('\n'));
    });

  integration
    .command('audit')
    .description('print what was done in the connector portal of an integration, newest first')
    .argument('<id>', 'integration id', parseUuid)
    .option('--json', 'print one JSON document: [{"at", "mode", "action", "detail"}]')
    .action(async (id: string, options: JsonOption) => {
      const actions = await ctx.withAdmin((admin) => admin.listPortalActions(id));
      const rows = actions.map((a) => ({ at: a.at.toISOString(), mode: a.mode, action: a.action, detail: a.detail }));
      ctx.print(options, rows, () =>
        rows.length === 0 ? 'Nothing was done in the portal yet' : rows.map((r) => `${r.at}  ${r.mode.padEnd(4)}  ${r.action}  ${JSON.stringify(r.detail)}`).join('\n'),
      );
    });
};

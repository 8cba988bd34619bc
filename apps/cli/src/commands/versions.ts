import { API_VERSIONS } from '@garage/versions';
import type { Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';

/** `versions`: every supported API version, its changes, its deprecation, and how many live integrations it serves. */
export const registerVersions = (program: Command, ctx: CliContext): void => {
  program
    .command('versions')
    .description('list the supported API versions, newest last, with their changes and the integrations pinned to each')
    .option('--json', 'print one JSON array: [{"version", "changes", "deprecated", "sunsetAt", "integrations"}]')
    .action(async (options: JsonOption) => {
      const pinned = await ctx.withAdmin((admin) => admin.countIntegrationsByApiVersion());
      const versions = API_VERSIONS.versions.map((v) => ({
        version: v.version,
        changes: v.changes.map((c) => c.description),
        deprecated: v.deprecation !== null,
        sunsetAt: v.deprecation?.sunsetAt ?? null,
        integrations: pinned[v.version] ?? 0,
      }));
      ctx.print(options, versions, () =>
        versions
          .map((v) =>
            [
              `${v.version}${v.version === API_VERSIONS.latest ? ' (latest)' : ''}${v.deprecated ? `  deprecated, sunset ${v.sunsetAt}` : ''}  ${v.integrations} integration(s)`,
              ...(v.changes.length === 0 ? ['  the first version'] : v.changes.map((c) => `  - ${c}`)),
            ].join('\n'),
          )
          .join('\n'),
      );
    });
};

import type { Command } from 'commander';
import type { Integration, ListedIntegration as Listing, SyncToggle } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { API_VERSIONS } from '@garage/versions';
import { registerPortalCommands } from './portal.js';
import { parseApiVersion, parseNumber, parseSyncList, parseUuid, SYNC_TOGGLES } from '../options.js';

interface CreateOptions extends JsonOption {
  garage: string;
  name: string;
  sync?: SyncToggle[];
  webhookUrl?: string;
  apiVersion?: string;
}

interface ListedIntegration {
  id: string;
  name: string;
  sync: SyncToggle[];
  webhookUrl: string | null;
  apiVersion: string;
  revoked: boolean;
  lastUsedAt: string | null;
  /** Null for an integration made before sandboxes, until its first test key (`rotate-key --test`). */
  sandbox: { garageSlug: string; webhookUrl: string | null } | null;
}

const listed = (integration: Integration & Partial<Pick<Listing, 'sandbox'>>): ListedIntegration => ({
  id: integration.id,
  name: integration.name,
  sync: SYNC_TOGGLES.filter((toggle) => integration.sync[toggle]),
  webhookUrl: integration.webhookUrl,
  apiVersion: integration.apiVersion,
  revoked: integration.revokedAt !== null,
  lastUsedAt: integration.lastUsedAt?.toISOString() ?? null,
  sandbox: integration.sandbox ?? null,
});

const describe = (i: ListedIntegration): string =>
  [
    `${i.id}  ${i.name}${i.revoked ? '  (revoked)' : ''}`,
    `  sync: ${i.sync.length > 0 ? i.sync.join(', ') : 'none'}`,
    `  webhook: ${i.webhookUrl ?? 'none'}`,
    `  API version: ${i.apiVersion}`,
    `  last used: ${i.lastUsedAt ?? 'never'}`,
    i.sandbox ? `  sandbox: ${i.sandbox.garageSlug}, webhook: ${i.sandbox.webhookUrl ?? 'none'}` : '  sandbox: none (rotate-key --test makes it)',
  ].join('\n');

const SHOWN_ONCE = 'Store them now: they are shown only once.';

interface UpdateOptions extends JsonOption {
  name?: string;
  sync?: SyncToggle[];
  webhookUrl?: string | false;
  testWebhookUrl?: string | false;
  apiVersion?: string;
}

export const registerIntegration = (program: Command, ctx: CliContext): void => {
  const integration = program.command('integration').description('manage the API keys of a garage\'s integrations');

  integration
    .command('create')
    .description('create an integration and its sandbox; its live and test keys and webhook secrets are shown once')
    .requiredOption('--garage <slug>', 'garage slug')
    .requiredOption('--name <name>', 'display name, e.g. the connector or shop')
    .option('--sync <toggles>', `endpoints to open, comma-separated among ${SYNC_TOGGLES.join(', ')} (default: none)`, parseSyncList)
    .option('--webhook-url <url>', 'http(s) URL receiving the webhooks')
    .option('--api-version <version>', `the API version to pin it to (default: the latest, ${API_VERSIONS.latest})`, parseApiVersion)
    .option('--json', 'print one JSON document: {"id", "apiKey", "webhookSecret", "apiVersion", "testApiKey", "testWebhookSecret", "sandboxGarageSlug"}')
    .action(async (options: CreateOptions) => {
      const created = await ctx.withAdmin((admin) =>
        admin.createIntegration({
          garageSlug: options.garage,
          name: options.name,
          sync: options.sync ?? [],
          webhookUrl: options.webhookUrl ?? null,
          apiVersion: options.apiVersion ?? API_VERSIONS.latest,
        }),
      );
      const { id, apiVersion } = created.integration;
      const { testApiKey, testWebhookSecret } = created.sandbox;
      const sandboxGarageSlug = created.sandbox.garage.slug;
      ctx.print(
        options,
        { id, apiKey: created.apiKey, webhookSecret: created.webhookSecret, apiVersion, testApiKey, testWebhookSecret, sandboxGarageSlug },
        () =>
          [
            `Created integration ${created.integration.name} (${id}), pinned to API version ${apiVersion}`,
            `  API key:             ${created.apiKey}`,
            `  webhook secret:      ${created.webhookSecret}`,
            `  test API key:        ${testApiKey}`,
            `  test webhook secret: ${testWebhookSecret}`,
            `  sandbox garageSlug:  ${sandboxGarageSlug}`,
            SHOWN_ONCE,
          ].join('\n'),
      );
    });

  integration
    .command('list')
    .description('list the integrations of a garage, revoked ones included')
    .requiredOption('--garage <slug>', 'garage slug')
    .option('--json', 'print one JSON array: [{"id", "name", "sync", "webhookUrl", "apiVersion", "revoked", "lastUsedAt", "sandbox": {"garageSlug", "webhookUrl"}}]')
    .action(async (options: JsonOption & { garage: string }) => {
      const integrations = (await ctx.withAdmin((admin) => admin.listIntegrations(options.garage))).map(listed);
      ctx.print(options, integrations, () =>
        integrations.length === 0 ? `No integration for garage ${options.garage}.` : integrations.map(describe).join('\n'),
      );
    });

  integration
    .command('revoke')
    .description('revoke an integration: its live and test keys stop working (on every API instance within seconds)')
    .argument('<id>', 'integration id', parseUuid)
    .option('--json', 'print one JSON document: {"id"}')
    .action(async (id: string, options: JsonOption) => {
      const revoked = await ctx.withAdmin((admin) => admin.revokeIntegration(id));
      ctx.print(options, { id: revoked.id }, () => `Revoked integration ${revoked.id}`);
    });

  integration
    .command('update')
    .description('change the name, sync toggles, webhook URL or API version of an integration; what is not given stays')
    .argument('<id>', 'integration id', parseUuid)
    .option('--name <name>', 'new display name')
    .option('--sync <toggles>', `the toggles to have on, comma-separated among ${SYNC_TOGGLES.join(', ')} ("" turns all off)`, parseSyncList)
    .option('--webhook-url <url>', 'new http(s) URL for the webhooks: pending deliveries go there too')
    .option('--no-webhook-url', 'remove the webhook URL: pending deliveries end as cancelled')
    .option('--test-webhook-url <url>', 'the sandbox\'s webhook URL: test-mode events go there, and only there')
    .option('--no-test-webhook-url', 'remove the sandbox\'s webhook URL: its pending deliveries end as cancelled')
    .option('--api-version <version>', 'move the pin, up or down, to this supported API version: requests without Garage-Version and webhooks not yet sent follow it', parseApiVersion)
    .option('--json', 'print one JSON document: {"id", "name", "sync", "webhookUrl", "apiVersion"}')
    .action(async (id: string, options: UpdateOptions) => {
      const updated = await ctx.withAdmin((admin) =>
        admin.updateIntegration(id, {
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.sync === undefined ? {} : { sync: options.sync }),
          ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl === false ? null : options.webhookUrl }),
          ...(options.testWebhookUrl === undefined ? {} : { testWebhookUrl: options.testWebhookUrl === false ? null : options.testWebhookUrl }),
          ...(options.apiVersion === undefined ? {} : { apiVersion: options.apiVersion }),
        }),
      );
      const shown = listed(updated);
      ctx.print(options, { id: shown.id, name: shown.name, sync: shown.sync, webhookUrl: shown.webhookUrl, apiVersion: shown.apiVersion }, () =>
        [`Updated integration ${shown.id}`, describe(shown)].join('\n'),
      );
    });

  integration
    .command('rotate-key')
    .description('replace the API key of an integration; the old key keeps working for --overlap-hours (default 0: it stops at once)')
    .argument('<id>', 'integration id', parseUuid)
    .option('--overlap-hours <hours>', 'how long the old key keeps working, on every instance (0 to 168)', parseNumber, 0)
    .option('--test', 'replace the test key instead (an integration without a sandbox gets one, and its first test key)')
    .option('--json', 'print one JSON document: {"id", "apiKey", "previousKeyExpiresAt"}; with --test {"id", "testApiKey", "previousKeyExpiresAt"}')
    .action(async (id: string, options: JsonOption & { overlapHours: number; test?: boolean }) => {
      if (options.test) {
        const rotated = await ctx.withAdmin((admin) => admin.rotateTestKey(id, { overlapHours: options.overlapHours }));
        const expires = rotated.previousKeyExpiresAt.toISOString();
        ctx.print(options, { id: rotated.id, testApiKey: rotated.testApiKey, previousKeyExpiresAt: expires }, () =>
          [`New test API key for integration ${rotated.id}: ${rotated.testApiKey}`, `  the old test key works until ${expires}`, SHOWN_ONCE].join('\n'),
        );
        return;
      }
      const rotated = await ctx.withAdmin((admin) => admin.rotateKey(id, { overlapHours: options.overlapHours }));
      const expires = rotated.previousKeyExpiresAt.toISOString();
      ctx.print(options, { id: rotated.integration.id, apiKey: rotated.apiKey, previousKeyExpiresAt: expires }, () =>
        [`New API key for integration ${rotated.integration.id}: ${rotated.apiKey}`, `  the old key works until ${expires}`, SHOWN_ONCE].join('\n'),
      );
    });

  integration
    .command('rotate-webhook-secret')
    .description('replace the webhook secret; until the overlap ends every delivery carries both signatures (v1,<new> v1,<old>)')
    .argument('<id>', 'integration id', parseUuid)
    .option('--overlap-hours <hours>', 'how long deliveries are signed with the old secret too (0 to 168)', parseNumber, 24)
    .option('--test', 'replace the sandbox\'s webhook secret instead')
    .option('--json', 'print one JSON document: {"id", "webhookSecret", "previousSecretExpiresAt"}; with --test {"id", "testWebhookSecret", "previousSecretExpiresAt"}')
    .action(async (id: string, options: JsonOption & { overlapHours: number; test?: boolean }) => {
      if (options.test) {
        const rotated = await ctx.withAdmin((admin) => admin.rotateTestWebhookSecret(id, { overlapHours: options.overlapHours }));
        const expires = rotated.previousSecretExpiresAt.toISOString();
        ctx.print(options, { id: rotated.id, testWebhookSecret: rotated.testWebhookSecret, previousSecretExpiresAt: expires }, () =>
          [
            `New test webhook secret for integration ${rotated.id}: ${rotated.testWebhookSecret}`,
            `  sandbox deliveries are signed with the old secret too until ${expires}`,
            SHOWN_ONCE,
          ].join('\n'),
        );
        return;
      }
      const rotated = await ctx.withAdmin((admin) => admin.rotateWebhookSecret(id, { overlapHours: options.overlapHours }));
      const expires = rotated.previousSecretExpiresAt.toISOString();
      ctx.print(options, { id: rotated.integration.id, webhookSecret: rotated.webhookSecret, previousSecretExpiresAt: expires }, () =>
        [
          `New webhook secret for integration ${rotated.integration.id}: ${rotated.webhookSecret}`,
          `  deliveries are signed with the old secret too until ${expires}`,
          SHOWN_ONCE,
        ].join('\n'),
      );
    });

  integration
    .command('sandbox-reset')
    .description('empty the sandbox of an integration (appointments, leads, quotes, events) and copy the live garage into it again')
    .argument('<id>', 'integration id', parseUuid)
    .option('--json', 'print one JSON document: {"id", "resetAt"}')
    .action(async (id: string, options: JsonOption) => {
      const reset = await ctx.withAdmin((admin) => admin.resetSandbox(id));
      const resetAt = reset.resetAt.toISOString();
      ctx.print(options, { id: reset.id, resetAt }, () => `Reset the sandbox of integration ${reset.id} at ${resetAt}`);
    });
  registerPortalCommands(integration, ctx);
};

import type { Command } from 'commander';
import type { DeliveryView } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { parseInteger, parseUuid } from '../options.js';

/** JSON-ready view of a delivery: dates as RFC 3339 strings, attempts oldest first. */
const shown = (d: DeliveryView) => ({
  id: d.id,
  eventId: d.eventId,
  type: d.type,
  url: d.url,
  status: d.status,
  attemptCount: d.attemptCount,
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
  attempts: d.attempts.map((a) => ({
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    error: a.error,
    durationMs: a.durationMs,
  })),
});

const describe = (d: ReturnType<typeof shown>): string =>
  [
    `${d.createdAt}  ${d.type}  ${d.status}  ${d.url}  (event ${d.eventId})`,
    ...d.attempts.map((a) => `  ${a.attemptedAt}  ${a.statusCode ?? a.error}  ${a.durationMs} ms`),
    ...(d.nextAttemptAt ? [`  next attempt ${d.nextAttemptAt}`] : []),
  ].join('\n');

export const registerWebhook = (program: Command, ctx: CliContext): void => {
  const webhook = program.command('webhook').description('inspect and replay webhook deliveries');

  webhook
    .command('deliveries')
    .description("an integration's recent webhook deliveries, newest first, with every attempt")
    .requiredOption('--integration <id>', 'integration id', parseUuid)
    .option('--limit <n>', 'how many deliveries (1–500, default 50)', parseInteger)
    .option('--json', 'print one JSON array: [{"id", "eventId", "type", "url", "status", "attemptCount", "nextAttemptAt", "createdAt", "attempts"}]')
    .action(async (options: JsonOption & { integration: string; limit?: number }) => {
      const deliveries = (
        await ctx.withAdmin((admin) => admin.listWebhookDeliveries({ integrationId: options.integration, limit: options.limit }))
      ).map(shown);
      ctx.print(options, deliveries, () =>
        deliveries.length === 0 ? 'No webhook delivery for this integration.' : deliveries.map(describe).join('\n'),
      );
    });

  webhook
    .command('replay')
    .description('send an event again, now, to every integration it was delivered to (same webhook-id)')
    .argument('<eventId>', 'webhook event id (the webhook-id header receivers saw)', parseUuid)
    .option('--json', 'print one JSON document: {"eventId", "deliveries"}')
    .action(async (eventId: string, options: JsonOption) => {
      const replayed = await ctx.withAdmin((admin) => admin.replayWebhook(eventId));
      ctx.print(options, replayed, () => `Event ${replayed.eventId} queued again for ${replayed.deliveries} deliveries.`);
    });
};

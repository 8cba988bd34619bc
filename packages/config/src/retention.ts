import { EVENT_FEED_DAYS, type RetentionSettings } from '@garage/domain';
import { Type } from 'typebox';
import { ConfigError } from './config-error.js';

/** How long the tables that grow with time keep their rows (docs/operators/retention.md), read by the API and the worker. */
export const retentionFields = {
  WEBHOOK_EVENT_RETENTION_DAYS: Type.String({ pattern: '^[1-9]\\d{0,4}$', default: '30', description: 'a number of days from 30 to 99999' }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: Type.String({ pattern: '^[1-9]\\d{0,4}$', default: '30', description: 'a number of days from 1 to 99999' }),
  SANDBOX_RETENTION_DAYS: Type.String({ pattern: '^[1-9]\\d{0,4}$', default: '90', description: 'a number of days from 1 to 99999' }),
  REQUEST_LOG_RETENTION_DAYS: Type.String({ pattern: '^[1-9]\\d{0,3}$', default: '7', description: 'a number of days from 1 to 9999' }),
};

/** The settings, checked against the contract: the events feed keeps `EVENT_FEED_DAYS` at least. */
export const retentionOf = (parsed: {
  WEBHOOK_EVENT_RETENTION_DAYS: string;
  WEBHOOK_DELIVERY_RETENTION_DAYS: string;
  SANDBOX_RETENTION_DAYS: string;
  REQUEST_LOG_RETENTION_DAYS: string;
}): RetentionSettings => {
  const webhookEventDays = Number(parsed.WEBHOOK_EVENT_RETENTION_DAYS);
  if (webhookEventDays < EVENT_FEED_DAYS) {
    throw new ConfigError(
      'WEBHOOK_EVENT_RETENTION_DAYS',
      `must be a number of days from ${EVENT_FEED_DAYS} to 99999: the events feed keeps ${EVENT_FEED_DAYS} days (got "${parsed.WEBHOOK_EVENT_RETENTION_DAYS}")`,
    );
  }
  return {
    webhookEventDays,
    webhookDeliveryDays: Number(parsed.WEBHOOK_DELIVERY_RETENTION_DAYS),
    sandboxDays: Number(parsed.SANDBOX_RETENTION_DAYS),
    requestLogDays: Number(parsed.REQUEST_LOG_RETENTION_DAYS),
  };
};

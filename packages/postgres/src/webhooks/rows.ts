import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type DeliveryStatus, type WebhookEventType } from '@garage/domain';

/** Text columns read back as the domain's unions; a value outside them is a corrupt row, not a user error. */
export const asEventType = (value: string): WebhookEventType => {
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)) throw new Error(`unknown webhook event type ${value}`);
  return value as WebhookEventType;
};

export const asStatus = (value: string): DeliveryStatus => {
  if (!(DELIVERY_STATUSES as readonly string[]).includes(value)) throw new Error(`unknown delivery status ${value}`);
  return value as DeliveryStatus;
};

import type { VersionRegistry } from './registry.js';
import type { Json } from './version-change.js';

/** An event as stored (newest shape), and as a receiver or the events feed gets it at one version. */
export interface StoredEvent {
  type: string;
  occurredAt: Date;
  /** False for an event of a sandbox (docs/reference/contract.md §9). */
  livemode: boolean;
  data: Json;
}

export interface RenderedEvent {
  type: string;
  timestamp: string;
  apiVersion: string;
  livemode: boolean;
  data: Json;
}

/** The webhook body and the feed item of an event at `version` (docs/reference/contract.md §5, §8). */
export const renderEvent = (registry: VersionRegistry, version: string, event: StoredEvent): RenderedEvent => ({
  type: event.type,
  timestamp: event.occurredAt.toISOString(),
  apiVersion: version,
  livemode: event.livemode,
  data: registry.renderEventData(version, event.type, event.data),
});

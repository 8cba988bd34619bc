import type { SyncToggle } from '@garage/domain';
import type { IntegrationRow } from '../schema.js';

/** The column of `integrations` that stores each sync toggle: the type keeps it whole as the domain's toggles grow. */
export const SYNC_TOGGLE_COLUMNS = {
  appointments: 'sync_appointments',
  catalog: 'sync_catalog',
  stock: 'sync_stock',
} as const satisfies Record<SyncToggle, keyof IntegrationRow>;

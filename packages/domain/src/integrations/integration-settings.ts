import type { SyncToggle, SyncToggles } from './integration.js';

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const togglesOf = (sync: readonly SyncToggle[]): SyncToggles => ({
  appointments: sync.includes('appointments'),
  catalog: sync.includes('catalog'),
  stock: sync.includes('stock'),
});

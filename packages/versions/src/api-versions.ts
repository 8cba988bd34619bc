import { leadEventVehicle } from './changes/2026-11-26-lead-event-vehicle.js';
import { oneEnvelope } from './changes/2026-11-26-one-envelope.js';
import { makeRegistry } from './registry.js';

/**
 * Every supported version of the public API (docs/reference/contract.md §8): the first, then the changes, oldest first. A version is
 * the date its changes shipped. A version is supported at least 12 months after its successor ships; deprecating one
 * means adding it to `deprecations` with the date its sunset is announced and the sunset date.
 */
export const API_VERSIONS = makeRegistry({
  first: '2026-11-21',
  changes: [oneEnvelope, leadEventVehicle],
  deprecations: {},
});

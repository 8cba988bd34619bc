import { randomBytes } from 'node:crypto';
import { SLUG_MAX_LENGTH } from '../kernel/validation.js';

/** What one sandbox may hold (docs/reference/contract.md §9): past it, SANDBOX_LIMIT until a reset empties it. */
export const SANDBOX_LIMITS = { appointments: 10_000, quotes: 1_000 } as const;

export type SandboxLimits = { appointments: number; quotes: number };

/**
 * A sandbox's public `garageSlug`: the live slug, then `-sandbox-` and 8 random hex characters, so it is never a live
 * garage's slug that exists (the slug is unique) and nobody guesses another integration's sandbox from the live one.
 */
export const sandboxSlugFor = (liveSlug: string): string => {
  const suffix = `-sandbox-${randomBytes(4).toString('hex')}`;
  return `${liveSlug.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
};

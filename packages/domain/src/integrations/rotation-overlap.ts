import { Checker } from '../kernel/validation.js';

/** The longest overlap of a rotation: a week is enough to roll a key or a secret out; longer is a forgotten key. */
export const MAX_OVERLAP_HOURS = 168;

export const overlapMs = (hours: number): number => {
  const check = new Checker();
  if (!Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    check.fail('/overlapHours', `must be a number of hours from 0 to ${MAX_OVERLAP_HOURS}`);
  }
  check.throwIfAny('Invalid overlap');
  return Math.round(hours * 3_600_000);
};

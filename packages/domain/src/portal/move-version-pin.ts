import type { Integration, Mode } from '../integrations/integration.js';
import type { Clock } from '../kernel/clock.port.js';
import { ValidationError } from '../kernel/errors.js';
import { PIN_REVERT_HOURS, type PortalSession } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

export interface MoveVersionPinCommand {
  session: PortalSession;
  mode: Mode;
  /** The integration's current pin. */
  from: string;
  to: string;
  /** Every supported version, oldest first (the API's registry). */
  supported: readonly string[];
}

/** When a pin moved in the portal may be moved back: the newest portal move, within its window. */
export const revertablePin = (actions: readonly { action: string; detail: Record<string, unknown>; at: Date }[], current: string, now: Date) => {
  const last = actions.find((a) => a.action === 'version.pin');
  if (!last || last.detail.to !== current || typeof last.detail.from !== 'string') return null;
  const until = new Date(last.at.getTime() + PIN_REVERT_HOURS * 3_600_000);
  return until > now ? { version: last.detail.from, until } : null;
};

/**
 * The portal's version pin (docs/reference/contract.md §10): up to any newer supported version; down only back to the
 * pin the last portal move left, within `PIN_REVERT_HOURS`. The move itself is `integration update`'s, the same use
 * case the CLI calls; it is recorded in the portal's audit.
 */
export const makeMoveVersionPin =
  ({
    updatePin,
    portal,
    clock,
  }: {
    updatePin: (integrationId: string, apiVersion: string) => Promise<Integration>;
    portal: Pick<PortalStore, 'listActions' | 'recordAction'>;
    clock: Clock;
  }) =>
  async ({ session, mode, from, to, supported }: MoveVersionPinCommand): Promise<Integration> => {
    const refuse = (message: string) => new ValidationError('Invalid version', [{ path: '/version', message }]);
    if (!supported.includes(to)) throw refuse(`must be one of ${supported.join(', ')}`);
    if (to === from) throw refuse('is the current pin already');
    if (supported.indexOf(to) < supported.indexOf(from)) {
      const revert = revertablePin(await portal.listActions(session.integrationId, 50), from, clock.now());
      if (revert?.version !== to) throw refuse(`can move back only to the pin the portal last replaced, within ${PIN_REVERT_HOURS} hours`);
    }
    const updated = await updatePin(session.integrationId, to);
    await portal.recordAction({ integrationId: session.integrationId, sessionId: session.id, mode, action: 'version.pin', detail: { from, to } });
    return updated;
  };

import type { Clock } from '../kernel/clock.port.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import type { LocalTime } from './local-time.js';

/** What each use case that writes an appointment is made from: its transaction, the time, and the local-time facts. */
export interface AppointmentWriteDeps {
  uow: UnitOfWork;
  clock: Clock;
  localTime: LocalTime;
}

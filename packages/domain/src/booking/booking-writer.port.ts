import type { OutboxEvent } from '../webhooks/outbox.port.js';
import type { Appointment } from './appointment.js';
import type { BookingLockKey } from './booking-lock.port.js';

/** A new appointment as one write: what `BookingWriter.bookIfRoom` is given. */
export interface PlaceRequest {
  /** The day whose booking lock the write takes: its version moves with the write, as `BookingLocks` says. */
  lock: BookingLockKey;
  capacity: number;
  slotMinutes: number;
  /** The slots the appointment covers: each must have room under the lock (`hasRoom`, capacity-rule.ts). */
  slots: readonly Date[];
  /** The appointment as it is stored, its id, products and times included. */
  appointment: Appointment;
  /** Its `appointment.created` event, written with it (`Outbox`). */
  event: OutboxEvent;
}

/**
 * A booking's write as one step, atomic alone or inside a transaction: takes the booking lock of `lock`, counts the
 * places held over `slots` after the lock was granted (fresh reads, as `BookingLocks` says) and, when every slot has
 * room by the capacity rule (`hasRoom`), writes the appointment with its products and its event. Answers false, having
 * written nothing but the lock's version, when a slot is full. Unique `(integrationId, externalRef)` and unknown
 * products fail as `AppointmentRepository.create` does. One step, so that an adapter can make it one statement and a
 * booking needs no transaction of its own.
 */
export interface BookingWriter {
  bookIfRoom(request: PlaceRequest): Promise<boolean>;
}

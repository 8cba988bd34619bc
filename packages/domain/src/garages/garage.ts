export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A local-time interval within one day, `HH:mm` strings, start < end. */
export interface OpeningInterval {
  start: string;
  end: string;
}

export type WeeklyHours = Record<Weekday, OpeningInterval[]>;

export interface BookingSettings {
  timezone: string;
  slotMinutes: number;
  capacity: number;
  weeklyHours: WeeklyHours;
  minNoticeMinutes: number;
  horizonDays: number;
}

export interface Garage {
  id: string;
  slug: string;
  name: string;
  currency: string;
  booking: BookingSettings;
  createdAt: Date;
}

/** Inclusive range of local dates (`YYYY-MM-DD`) on which the garage takes no appointment. */
export interface Closure {
  id: string;
  garageId: string;
  from: string;
  to: string;
  reason: string | null;
}

export const DEFAULT_BOOKING: Omit<BookingSettings, 'weeklyHours'> = {
  timezone: 'Europe/Paris',
  slotMinutes: 30,
  capacity: 2,
  minNoticeMinutes: 120,
  horizonDays: 60,
};

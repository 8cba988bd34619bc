/** What replaces a person's name, email, phone and free text once erased (docs/reference/contract.md §11). */
export const ERASED = '[erased]';

/** An appointment as `customer export` shows it: who booked, when, and what they wrote. */
export interface CustomerAppointment {
  id: string;
  status: string;
  startsAt: string;
  endsAt: string;
  customer: { name: string; email: string | null; phone: string | null };
  vehicle: Record<string, unknown> | null;
  notes: string | null;
  cancellationReason: string | null;
  createdAt: string;
}

export interface CustomerLead {
  id: string;
  vehicleId: string;
  name: string;
  email: string | null;
  phone: string | null;
  message: string | null;
  consent: boolean;
  createdAt: string;
}

export interface CustomerQuote {
  id: string;
  number: string;
  status: string;
  customerName: string;
  signerName: string | null;
  comment: string | null;
  refuseReason: string | null;
  totalCents: number;
  currency: string;
  createdAt: string;
}

/** Everything one garage holds about one person. */
export interface CustomerRecords {
  appointments: CustomerAppointment[];
  leads: CustomerLead[];
  quotes: CustomerQuote[];
}

export const NO_RECORDS: CustomerRecords = { appointments: [], leads: [], quotes: [] };

/** How many rows of each kind an erasure rewrote. */
export interface ErasureCounts {
  appointments: number;
  leads: number;
  quotes: number;
  events: number;
}

export const NOTHING_ERASED: ErasureCounts = { appointments: 0, leads: 0, quotes: 0, events: 0 };

/**
 * A quote stores its customer's name and no email: it names the person when its customer name is one of the names
 * their appointments and leads give with that email (compared without case or surrounding spaces).
 */
export const namesOf = (records: Pick<CustomerRecords, 'appointments' | 'leads'>): string[] => [
  ...new Set([...records.appointments.map((a) => a.customer.name), ...records.leads.map((l) => l.name)].map(normalName)),
];

export const normalName = (name: string): string => name.trim().toLowerCase();

/**
 * The keys of event data (docs/reference/contract.md §5: appointment, lead and quote events) that hold a person's
 * name, email, phone or free text, at the top and under `customer`.
 */
const PERSONAL_KEYS = new Set([
  'name',
  'email',
  'phone',
  'notes',
  'message',
  'cancellationReason',
  'customerName',
  'signerName',
  'comment',
  'reason',
]);

const erasedObject = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).map(([key, v]) => [key, typeof v === 'string' && PERSONAL_KEYS.has(key) ? ERASED : v]));

/** An event's data about an erased person, with `"[erased]"` where the person was; everything else as it was. */
export const eraseEventData = (data: Record<string, unknown>): Record<string, unknown> => {
  const erased = erasedObject(data);
  const customer = data['customer'];
  if (customer !== null && typeof customer === 'object' && !Array.isArray(customer)) {
    erased['customer'] = erasedObject(customer as Record<string, unknown>);
  }
  return erased;
};
